/// The 4-byte key a client masks every frame with (RFC 6455 §5.3).
public struct MaskingKey: Sendable, Hashable {
  /// The key's bytes in wire order, most significant first.
  public let wireValue: UInt32

  public init(wireValue: UInt32) { self.wireValue = wireValue }

  public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
    wireValue = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
  }

  /// A fresh key from the caller's generator: each frame gets its own (RFC 6455 §5.3).
  public static func random(using random: inout some RandomNumberGenerator) -> MaskingKey {
    MaskingKey(wireValue: UInt32.random(in: .min ... .max, using: &random))
  }

  public var bytes: [UInt8] {
    [
      UInt8(wireValue >> 24), UInt8(truncatingIfNeeded: wireValue >> 16),
      UInt8(truncatingIfNeeded: wireValue >> 8), UInt8(truncatingIfNeeded: wireValue),
    ]
  }

  /// The key byte that masks payload byte `index`.
  @inlinable
  public func byte(at index: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: wireValue >> UInt32(24 - 8 * (index & 3)))
  }

  /// Eight mask bytes starting at key position `phase`, laid out in memory in wire order,
  /// so that one XOR masks eight payload bytes.
  @inlinable
  func word(startingAt phase: Int) -> UInt64 {
    let shift = UInt32(8 * (phase & 3))
    let rotated = shift == 0 ? wireValue : (wireValue << shift) | (wireValue >> (32 - shift))
    return UInt64(bigEndian: UInt64(rotated) << 32 | UInt64(rotated))
  }
}

/// Masking and unmasking (the same XOR), a machine word at a time on the hot path.
public enum Masking {
  /// XORs `count` bytes from `source` into `destination` with `key`, as if the first byte were
  /// payload byte `phase` of its frame. `source` and `destination` may be the same memory.
  @inlinable
  public static func apply(
    _ key: MaskingKey, phase: Int, from source: UnsafeRawPointer,
    to destination: UnsafeMutableRawPointer, count: Int
  ) {
    let word = key.word(startingAt: phase)
    var index = 0
    // Four words per iteration lets the optimizer keep the loop in vector registers.
    while index &+ 32 <= count {
      for lane in stride(from: 0, to: 32, by: 8) {
        let value = source.loadUnaligned(fromByteOffset: index &+ lane, as: UInt64.self)
        destination.storeBytes(of: value ^ word, toByteOffset: index &+ lane, as: UInt64.self)
      }
      index &+= 32
    }
    while index &+ 8 <= count {
      let value = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      destination.storeBytes(of: value ^ word, toByteOffset: index, as: UInt64.self)
      index &+= 8
    }
    while index < count {
      let value = source.load(fromByteOffset: index, as: UInt8.self)
      destination.storeBytes(
        of: value ^ key.byte(at: phase &+ index), toByteOffset: index, as: UInt8.self)
      index &+= 1
    }
  }

  /// Masks `bytes` in place; `phase` as in `apply(_:phase:from:to:count:)`.
  public static func apply(_ key: MaskingKey, phase: Int = 0, to bytes: inout [UInt8]) {
    let count = bytes.count
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      apply(key, phase: phase, from: UnsafeRawPointer(base), to: base, count: count)
    }
  }
}
