/// An incremental UTF-8 validator (Unicode Table 3-7, well-formed byte sequences).
///
/// Its state carries over between calls, so a code point may be split across reads and frames,
/// and it reports the first byte that can no longer begin or continue a valid sequence: an
/// overlong lead, a surrogate or an out-of-range second byte fails at that byte, not when the
/// sequence or the message ends (what Autobahn's 6.4.x cases check).
public struct UTF8Validator: Sendable, Hashable {
  enum State: UInt8, Sendable {
    case ready
    case needs1, needs2, needs3
    /// After E0: next must be A0–BF (no overlongs).
    case afterE0
    /// After ED: next must be 80–9F (no surrogates).
    case afterED
    /// After F0: next must be 90–BF (no overlongs).
    case afterF0
    /// After F4: next must be 80–8F (nothing above U+10FFFF).
    case afterF4
  }

  private(set) var state = State.ready

  public init() {}

  /// `true` when the bytes so far end on a code point boundary.
  public var isAtBoundary: Bool { state == .ready }

  /// Validates the next bytes; returns the offset of the first invalid byte in `bytes`, or nil.
  /// After a failure the validator's state is unspecified.
  @inlinable
  public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    return validate(base, count: bytes.count)
  }

  @usableFromInline
  mutating func validate(_ base: UnsafeRawPointer, count: Int) -> Int? {
    var index = 0
    // Finish a sequence that an earlier call left open, a byte at a time.
    while state != .ready {
      guard index < count else { return nil }
      guard
        let next = Self.transition(
          from: state, on: base.load(fromByteOffset: index, as: UInt8.self))
      else { return index }
      state = next
      index &+= 1
    }
    while index < count {
      // ASCII: eight bytes per step; at a word with a high bit, jump straight to that byte.
      if index &+ 8 <= count {
        let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let highBits = UInt64(littleEndian: word) & 0x8080_8080_8080_8080
        if highBits == 0 {
          index &+= 8
          continue
        }
        index &+= highBits.trailingZeroBitCount >> 3
      }
      let lead = base.load(fromByteOffset: index, as: UInt8.self)
      if lead < 0x80 {
        index &+= 1
        continue
      }
      if index &+ 4 <= count {
        // The whole sequence is here: check it at once (Unicode Table 3-7).
        let length = Self.sequenceLength(base, at: index)
        if length < 0 { return index &+ (-length &- 1) }
        index &+= length
        continue
      }
      // Near the end of the input: the sequence may continue in the next call.
      for offset in index..<count {
        guard
          let next = Self.transition(
            from: state, on: base.load(fromByteOffset: offset, as: UInt8.self))
        else { return offset }
        state = next
      }
      return nil
    }
    return nil
  }

  /// The length of the valid sequence starting at `index` (4 bytes must be readable there), or
  /// `-(k + 1)` when its byte `k` is the first that cannot belong to it.
  @inline(__always)
  static func sequenceLength(_ base: UnsafeRawPointer, at index: Int) -> Int {
    let b0 = base.load(fromByteOffset: index, as: UInt8.self)
    let b1 = base.load(fromByteOffset: index &+ 1, as: UInt8.self)
    let secondRange: ClosedRange<UInt8>
    let length: Int
    switch b0 {
    case 0xC2...0xDF: return b1 & 0xC0 == 0x80 ? 2 : -2
    case 0xE0: (secondRange, length) = (0xA0...0xBF, 3)
    case 0xED: (secondRange, length) = (0x80...0x9F, 3)
    case 0xE1...0xEC, 0xEE...0xEF: (secondRange, length) = (0x80...0xBF, 3)
    case 0xF0: (secondRange, length) = (0x90...0xBF, 4)
    case 0xF1...0xF3: (secondRange, length) = (0x80...0xBF, 4)
    case 0xF4: (secondRange, length) = (0x80...0x8F, 4)
    default: return -1
    }
    guard secondRange.contains(b1) else { return -2 }
    guard base.load(fromByteOffset: index &+ 2, as: UInt8.self) & 0xC0 == 0x80 else { return -3 }
    if length == 3 { return 3 }
    guard base.load(fromByteOffset: index &+ 3, as: UInt8.self) & 0xC0 == 0x80 else { return -4 }
    return 4
  }

  @inline(__always)
  static func transition(from state: State, on byte: UInt8) -> State? {
    switch state {
    case .ready:
      switch byte {
      case 0x00...0x7F: return .ready
      case 0xC2...0xDF: return .needs1
      case 0xE0: return .afterE0
      case 0xE1...0xEC, 0xEE...0xEF: return .needs2
      case 0xED: return .afterED
      case 0xF0: return .afterF0
      case 0xF1...0xF3: return .needs3
      case 0xF4: return .afterF4
      default: return nil  // 80–C1 (continuation or overlong lead), F5–FF
      }
    case .needs1: return (0x80...0xBF).contains(byte) ? .ready : nil
    case .needs2: return (0x80...0xBF).contains(byte) ? .needs1 : nil
    case .needs3: return (0x80...0xBF).contains(byte) ? .needs2 : nil
    case .afterE0: return (0xA0...0xBF).contains(byte) ? .needs1 : nil
    case .afterED: return (0x80...0x9F).contains(byte) ? .needs1 : nil
    case .afterF0: return (0x90...0xBF).contains(byte) ? .needs2 : nil
    case .afterF4: return (0x80...0x8F).contains(byte) ? .needs2 : nil
    }
  }

  /// Whether `bytes` as a whole are valid UTF-8.
  public static func isValid(_ bytes: [UInt8]) -> Bool {
    var validator = UTF8Validator()
    return bytes.withUnsafeBytes { validator.validate($0) == nil } && validator.isAtBoundary
  }
}
