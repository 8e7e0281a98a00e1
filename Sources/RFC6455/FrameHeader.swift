/// A parsed frame header (RFC 6455 §5.2).
public struct FrameHeader: Sendable, Hashable {
  public var fin: Bool
  public var opcode: Opcode
  public var maskingKey: MaskingKey?
  public var payloadLength: Int
  /// RSV1 under permessage-deflate: the message this frame starts is compressed.
  public var compressed = false

  /// Parses a header from the start of `bytes`, checking every rule that the header alone
  /// decides as soon as the bytes that decide it are present. Returns `nil` when more bytes
  /// are needed.
  static func parse(
    _ bytes: UnsafeRawBufferPointer, expectMasked: Bool, messageInProgress: Bool,
    allowsCompression: Bool = false
  ) throws(ProtocolError) -> (header: FrameHeader, length: Int)? {
    guard bytes.count >= 2 else {
      if let first = bytes.first {
        _ = try checkFirstByte(
          first, messageInProgress: messageInProgress, allowsCompression: allowsCompression)
      }
      return nil
    }
    let (fin, opcode) = try checkFirstByte(
      bytes[0], messageInProgress: messageInProgress, allowsCompression: allowsCompression)
    let second = bytes[1]
    let masked = second & 0x80 != 0
    if masked != expectMasked {
      throw expectMasked ? .unmaskedFrameFromClient : .maskedFrameFromServer
    }
    let shortLength = Int(second & 0x7F)
    if opcode.isControl && shortLength > 125 { throw .controlFrameTooLong(shortLength) }

    var offset = 2
    var length = shortLength
    if shortLength == 126 {
      guard bytes.count >= 4 else { return nil }
      length = Int(bytes[2]) << 8 | Int(bytes[3])
      offset = 4
    } else if shortLength == 127 {
      guard bytes.count >= 3 else { return nil }
      if bytes[2] & 0x80 != 0 { throw .lengthTopBitSet }
      guard bytes.count >= 10 else { return nil }
      length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[$1]) }
      offset = 10
    }
    var key: MaskingKey?
    if masked {
      guard bytes.count >= offset + 4 else { return nil }
      key = MaskingKey(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
      offset += 4
    }
    return (
      FrameHeader(
        fin: fin, opcode: opcode, maskingKey: key, payloadLength: length,
        compressed: bytes[0] & 0x40 != 0), offset
    )
  }

  private static func checkFirstByte(
    _ byte: UInt8, messageInProgress: Bool, allowsCompression: Bool
  ) throws(ProtocolError) -> (Bool, Opcode) {
    let reserved = byte & (allowsCompression ? 0x30 : 0x70)
    if reserved != 0 { throw .reservedBitsSet(reserved >> 4) }
    guard let opcode = Opcode(rawValue: byte & 0x0F) else { throw .reservedOpcode(byte & 0x0F) }
    let fin = byte & 0x80 != 0
    if opcode.isControl {
      if !fin { throw .fragmentedControlFrame }
    } else if opcode == .continuation {
      if !messageInProgress { throw .continuationWithoutMessage }
    } else if messageInProgress {
      throw .dataFrameInsideFragmentedMessage
    }
    if byte & 0x40 != 0, opcode.isControl || opcode == .continuation {
      throw .compressedControlOrContinuation
    }
    return (fin, opcode)
  }
}
