/// RFC 6455 §5.2 opcodes. The others (0x3–0x7, 0xB–0xF) are reserved and fail the connection.
public enum Opcode: UInt8, Sendable, Hashable {
  case continuation = 0x0
  case text = 0x1
  case binary = 0x2
  case close = 0x8
  case ping = 0x9
  case pong = 0xA

  /// RFC 6455 §5.5: opcodes with the high bit set are control frames.
  public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// Whether a data message is UTF-8 text or binary.
public enum MessageKind: Sendable, Hashable {
  case text
  case binary

  var opcode: Opcode { self == .text ? .text : .binary }

  /// The kind of message a data frame's opcode starts; `nil` for continuation and control
  /// frames. The one mapping from opcodes back to kinds.
  @inline(__always)
  init?(opcode: Opcode) {
    switch opcode {
    case MessageKind.text.opcode: self = .text
    case MessageKind.binary.opcode: self = .binary
    default: return nil
    }
  }
}

/// A complete data message, reassembled from its fragments. Text messages hold validated UTF-8.
public struct WebSocketMessage: Sendable, Hashable {
  public var kind: MessageKind
  public var data: [UInt8]

  public init(kind: MessageKind, data: [UInt8]) {
    self.kind = kind
    self.data = data
  }

  public static func text(_ string: String) -> WebSocketMessage {
    WebSocketMessage(kind: .text, data: Array(string.utf8))
  }

  public static func binary(_ data: [UInt8]) -> WebSocketMessage {
    WebSocketMessage(kind: .binary, data: data)
  }

  /// The text of a text message (already validated as UTF-8 by the decoder); `nil` for binary.
  public var text: String? {
    kind == .text ? String(decoding: data, as: UTF8.self) : nil
  }
}
