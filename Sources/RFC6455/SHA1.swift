/// SHA-1 (FIPS 180-4), used only to compute and check `Sec-WebSocket-Accept`.
///
/// The core carries its own instead of depending on swift-crypto: SHA-1 here guards against
/// misbehaving caches and proxies, not attackers, and a dependency would cost every clean
/// build a second BoringSSL compile (4–5 CPU-minutes) for 80 lines of code.
/// Tested against the RFC 3174 vectors.
public struct SHA1: Sendable {
  private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (
    0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0
  )
  private var pending: [UInt8] = []
  private var totalLength: UInt64 = 0

  public init() { pending.reserveCapacity(64) }

  /// The 20-byte digest of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    var hasher = SHA1()
    hasher.update(bytes)
    return hasher.finalize()
  }

  public mutating func update(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      pending.append(byte)
      totalLength &+= 1
      if pending.count == 64 {
        compressPendingBlock()
      }
    }
  }

  public mutating func finalize() -> [UInt8] {
    let bitLength = totalLength &* 8
    pending.append(0x80)
    if pending.count > 56 {
      pending.append(contentsOf: repeatElement(0, count: 64 - pending.count))
      compressPendingBlock()
    }
    pending.append(contentsOf: repeatElement(0, count: 56 - pending.count))
    for shift in stride(from: 56, through: 0, by: -8) {
      pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    compressPendingBlock()
    var digest: [UInt8] = []
    digest.reserveCapacity(20)
    for word in [state.0, state.1, state.2, state.3, state.4] {
      digest.append(contentsOf: [
        UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16),
        UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
      ])
    }
    return digest
  }

  private mutating func compressPendingBlock() {
    var schedule = [UInt32](repeating: 0, count: 80)
    for index in 0..<16 {
      schedule[index] =
        UInt32(pending[index * 4]) << 24 | UInt32(pending[index * 4 + 1]) << 16
        | UInt32(pending[index * 4 + 2]) << 8 | UInt32(pending[index * 4 + 3])
    }
    for index in 16..<80 {
      schedule[index] = rotateLeft(
        schedule[index - 3] ^ schedule[index - 8] ^ schedule[index - 14] ^ schedule[index - 16],
        by: 1)
    }
    var (a, b, c, d, e) = state
    for index in 0..<80 {
      let mixed: UInt32
      let constant: UInt32
      switch index {
      case 0..<20:
        mixed = (b & c) | (~b & d)
        constant = 0x5A82_7999
      case 20..<40:
        mixed = b ^ c ^ d
        constant = 0x6ED9_EBA1
      case 40..<60:
        mixed = (b & c) | (b & d) | (c & d)
        constant = 0x8F1B_BCDC
      default:
        mixed = b ^ c ^ d
        constant = 0xCA62_C1D6
      }
      let next = rotateLeft(a, by: 5) &+ mixed &+ e &+ constant &+ schedule[index]
      e = d
      d = c
      c = rotateLeft(b, by: 30)
      b = a
      a = next
    }
    state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    pending.removeAll(keepingCapacity: true)
  }

  private func rotateLeft(_ value: UInt32, by amount: UInt32) -> UInt32 {
    (value << amount) | (value >> (32 - amount))
  }
}
