/// What the connection reports to its user.
public enum WebSocketEvent: Sendable, Hashable {
  /// The opening handshake succeeded.
  case opened(HandshakeResponse)
  case message(WebSocketMessage)
  /// A ping arrived; the pong is already queued (unless we are closing, RFC 6455 §5.5.1).
  case ping([UInt8])
  case pong([UInt8])
  /// The connection is over; always the last event. The transport closes TCP now if it is
  /// still open.
  case closed(CloseStatus)
}

/// How a connection ended.
public struct CloseStatus: Sendable, Hashable, CustomStringConvertible {
  /// The peer's close code; the code we failed the connection with; 1005 for a close frame
  /// without a code; 1006 when no close frame was exchanged.
  public var code: CloseCode
  public var reason: String
  /// Both close frames were exchanged before TCP went away (RFC 6455 §7.1.4).
  public var wasClean: Bool
  /// The peer sent a close frame before we sent ours (false when TCP simply ended).
  public var closedByPeer: Bool
  /// Why the connection failed, when it did.
  public var error: WebSocketError?

  public init(
    code: CloseCode, reason: String = "", wasClean: Bool, closedByPeer: Bool,
    error: WebSocketError? = nil
  ) {
    self.code = code
    self.reason = reason
    self.wasClean = wasClean
    self.closedByPeer = closedByPeer
    self.error = error
  }

  public var description: String {
    var text = "closed with \(code)"
    if !reason.isEmpty { text += " '\(reason)'" }
    text += wasClean ? ", clean" : ", not clean"
    if let error { text += ": \(error)" }
    return text
  }
}

/// Why a connection failed.
public enum WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
  case handshake(HandshakeError)
  case protocolViolation(ProtocolError)
  /// The peer did not complete the close handshake within the close timeout.
  case closeTimeout

  public var description: String {
    switch self {
    case .handshake(let error): error.description
    case .protocolViolation(let error):
      "protocol error: \(error) (close code \(error.closeCode.rawValue))"
    case .closeTimeout: "close handshake timed out"
    }
  }
}

/// Why a send or close was refused.
public enum SendError: Error, Sendable, Hashable, CustomStringConvertible {
  case notOpen(ClientConnection.State)
  case controlPayloadTooLong(Int)
  case invalidCloseCode(UInt16)
  case closeReasonTooLong(Int)
  case closeReasonWithoutCode

  public var description: String {
    switch self {
    case .notOpen(let state): "the connection is \(state), not open"
    case .controlPayloadTooLong(let count): "control frame payload of \(count) bytes (at most 125)"
    case .invalidCloseCode(let code): "close code \(code) may not be sent"
    case .closeReasonTooLong(let count): "close reason of \(count) bytes (at most 123)"
    case .closeReasonWithoutCode: "a close reason needs a close code (RFC 6455 §5.5.1)"
    }
  }
}
