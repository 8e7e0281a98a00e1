/// A peer's violation of RFC 6455, one case per rule; each names the close code it causes.
public enum ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  /// §5.1: a server must not mask its frames.
  case maskedFrameFromServer
  /// §5.1: a client must mask every frame (server role only).
  case unmaskedFrameFromClient
  /// §5.2: RSV1–3 must be 0 unless an extension defines them (RSV1: permessage-deflate,
  /// when negotiated).
  case reservedBitsSet(UInt8)
  /// RFC 7692 §6: RSV1 marks a compressed message on its first frame only, never on a
  /// continuation or control frame.
  case compressedControlOrContinuation
  /// RFC 7692 §6.2: a compressed message that does not inflate.
  case invalidCompressedData(String)
  /// §5.2: opcodes 0x3–0x7 and 0xB–0xF are reserved.
  case reservedOpcode(UInt8)
  /// §5.5: control frames carry at most 125 bytes…
  case controlFrameTooLong(Int)
  /// …and must not be fragmented.
  case fragmentedControlFrame
  /// §5.4: a continuation frame with no message in progress.
  case continuationWithoutMessage
  /// §5.4: a new text or binary frame while a fragmented message is in progress.
  case dataFrameInsideFragmentedMessage
  /// §5.2: the most significant bit of a 64-bit length must be 0.
  case lengthTopBitSet
  /// §8.1: a text message is not valid UTF-8; the offset of the first bad byte in the message.
  case invalidUTF8(messageOffset: Int)
  /// A message larger than the configured maximum (checked before it is buffered).
  case messageTooLarge(size: UInt64, limit: Int)
  /// §5.5.1: a close payload of exactly one byte.
  case closePayloadTooShort
  /// §7.4: a close code that must not be sent.
  case invalidCloseCode(UInt16)
  /// §5.5.1: a close reason that is not UTF-8.
  case invalidCloseReason

  /// The code we close with when the peer breaks this rule.
  public var closeCode: CloseCode {
    switch self {
    case .invalidUTF8, .invalidCloseReason, .invalidCompressedData: .invalidPayloadData
    case .messageTooLarge: .messageTooBig
    default: .protocolError
    }
  }

  public var description: String {
    switch self {
    case .maskedFrameFromServer: "masked frame from server"
    case .unmaskedFrameFromClient: "unmasked frame from client"
    case .reservedBitsSet(let bits):
      "reserved bits set (0x\(String(bits, radix: 16))) with no extension negotiated"
    case .compressedControlOrContinuation: "RSV1 (compressed) on a control or continuation frame"
    case .invalidCompressedData(let why): "compressed message does not inflate: \(why)"
    case .reservedOpcode(let opcode): "reserved opcode 0x\(String(opcode, radix: 16))"
    case .controlFrameTooLong(let length): "control frame of \(length) bytes (at most 125)"
    case .fragmentedControlFrame: "fragmented control frame"
    case .continuationWithoutMessage: "continuation frame with no message in progress"
    case .dataFrameInsideFragmentedMessage: "new data frame inside a fragmented message"
    case .lengthTopBitSet: "64-bit payload length with its top bit set"
    case .invalidUTF8(let offset): "invalid UTF-8 in text message at byte \(offset)"
    case .messageTooLarge(let size, let limit):
      "message of at least \(size) bytes exceeds the limit of \(limit)"
    case .closePayloadTooShort: "close frame with a 1-byte payload"
    case .invalidCloseCode(let code): "invalid close code \(code)"
    case .invalidCloseReason: "close reason is not valid UTF-8"
    }
  }
}
