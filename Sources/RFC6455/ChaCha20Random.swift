/// A ChaCha20 keystream (RFC 8439 block function) as a random number generator, seeded once
/// from a strong source.
///
/// Masking keys must be unpredictable (RFC 6455 §10.3), and a client needs one per frame;
/// asking the system generator each time costs a `getrandom` system call per frame, which
/// dominates the cost of sending small messages. One 64-byte block yields sixteen keys.
public struct ChaCha20Random: RandomNumberGenerator, Sendable {
  package private(set) var input: [UInt32]
  private var block: [UInt32] = []
  private var nextWord = 16

  /// Seeds the key from `source` (by default the system's generator).
  public init(seededFrom source: inout some RandomNumberGenerator) {
    var key: [UInt32] = []
    for _ in 0..<4 {
      let value = source.next()
      key += [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
    }
    self.init(key: key, counter: 0, nonce: [0, 0, 0])
  }

  public init() {
    var system = SystemRandomNumberGenerator()
    self.init(seededFrom: &system)
  }

  /// The RFC 8439 state: eight key words, a 32-bit block counter and a 96-bit nonce.
  package init(key: [UInt32], counter: UInt32, nonce: [UInt32]) {
    precondition(key.count == 8 && nonce.count == 3)
    input = [0x6170_7865, 0x3320_646E, 0x7962_2D32, 0x6B20_6574] + key + [counter] + nonce
  }

  public mutating func next() -> UInt64 {
    if nextWord >= 16 {
      block = Self.block(input)
      // The counter spills into the first nonce word: 2^64 blocks before the stream repeats.
      input[12] &+= 1
      if input[12] == 0 { input[13] &+= 1 }
      nextWord = 0
    }
    defer { nextWord += 2 }
    return UInt64(block[nextWord]) | UInt64(block[nextWord + 1]) << 32
  }

  /// RFC 8439 §2.3: twenty rounds over the state, then the input added back.
  package static func block(_ input: [UInt32]) -> [UInt32] {
    var x = input
    func quarterRound(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
      x[a] &+= x[b]
      x[d] = rotate(x[d] ^ x[a], 16)
      x[c] &+= x[d]
      x[b] = rotate(x[b] ^ x[c], 12)
      x[a] &+= x[b]
      x[d] = rotate(x[d] ^ x[a], 8)
      x[c] &+= x[d]
      x[b] = rotate(x[b] ^ x[c], 7)
    }
    for _ in 0..<10 {
      quarterRound(0, 4, 8, 12)
      quarterRound(1, 5, 9, 13)
      quarterRound(2, 6, 10, 14)
      quarterRound(3, 7, 11, 15)
      quarterRound(0, 5, 10, 15)
      quarterRound(1, 6, 11, 12)
      quarterRound(2, 7, 8, 13)
      quarterRound(3, 4, 9, 14)
    }
    return (0..<16).map { x[$0] &+ input[$0] }
  }

  private static func rotate(_ value: UInt32, _ amount: UInt32) -> UInt32 {
    (value << amount) | (value >> (32 - amount))
  }
}
