/// What the server agreed to in a successful opening handshake.
public struct HandshakeResponse: Sendable, Hashable {
  /// The subprotocol the server selected, if any (always one the client offered).
  public var subprotocol: String?
  public var headers: HTTPHeaders
  /// permessage-deflate, when the server accepted it.
  public var deflate: DeflateParameters?
}

extension HandshakeRequest {
  /// Checks a response head against this request (RFC 6455 §4.2.2 and §4.1, client steps 1–6).
  public func validate(_ head: HTTPResponseHead) throws(HandshakeError) -> HandshakeResponse {
    let headers = head.headers
    guard head.statusCode == 101 else {
      throw .unexpectedStatus(code: head.statusCode, reason: head.reason, headers: headers)
    }
    // HTTP/1.0 has no Upgrade mechanism (RFC 6455 §4.1 requires HTTP/1.1).
    guard head.version == "HTTP/1.1" else { throw .unsupportedHTTPVersion(head.version) }
    guard headers.tokens(named: "Upgrade").contains(where: { $0.lowercased() == "websocket" })
    else {
      throw .upgradeNotWebSocket(headers.first(named: "Upgrade"))
    }
    guard headers.tokens(named: "Connection").contains(where: { $0.lowercased() == "upgrade" })
    else {
      throw .connectionNotUpgrade(headers.first(named: "Connection"))
    }
    let accepts = headers.values(named: "Sec-WebSocket-Accept")
    guard accepts.count == 1, accepts[0] == expectedAccept else {
      throw .invalidAccept(expected: expectedAccept, received: accepts.joined(separator: ", "))
    }
    let deflate = try DeflateParameters.negotiate(
      headers.tokens(named: "Sec-WebSocket-Extensions"), offer: options.deflate)
    let selected = headers.tokens(named: "Sec-WebSocket-Protocol")
    guard selected.count <= 1 else {
      throw .unrequestedSubprotocol(selected.joined(separator: ", "))
    }
    if let subprotocol = selected.first, !options.subprotocols.contains(subprotocol) {
      throw .unrequestedSubprotocol(subprotocol)
    }
    return HandshakeResponse(subprotocol: selected.first, headers: headers, deflate: deflate)
  }
}

/// Why the opening handshake failed. A refusal carries the HTTP status, reason and headers.
public enum HandshakeError: Error, Sendable, Hashable, CustomStringConvertible {
  case headerBlockTooLarge(limit: Int)
  case malformedStatusLine(String)
  case unsupportedHTTPVersion(String)
  case malformedHeaderLine(String)
  case unexpectedStatus(code: Int, reason: String, headers: HTTPHeaders)
  case upgradeNotWebSocket(String?)
  case connectionNotUpgrade(String?)
  case invalidAccept(expected: String, received: String)
  case unrequestedSubprotocol(String)
  case unrequestedExtension(String)
  /// The server's permessage-deflate response breaks RFC 7692 (why, in words).
  case invalidExtension(String)
  /// The connection ended before the response head was complete.
  case connectionClosed

  /// For a redirect (3xx), where the server points.
  public var location: String? {
    if case .unexpectedStatus(let code, _, let headers) = self, (300..<400).contains(code) {
      return headers.first(named: "Location")
    }
    return nil
  }

  public var statusCode: Int? {
    if case .unexpectedStatus(let code, _, _) = self { return code }
    return nil
  }

  public var description: String {
    switch self {
    case .headerBlockTooLarge(let limit): "handshake response headers exceed \(limit) bytes"
    case .malformedStatusLine(let line): "malformed HTTP status line '\(line)'"
    case .unsupportedHTTPVersion(let version): "unsupported HTTP version '\(version)'"
    case .malformedHeaderLine(let line): "malformed HTTP header line '\(line)'"
    case .unexpectedStatus(let code, let reason, _):
      "server refused the WebSocket upgrade: HTTP \(code) \(reason)"
        + (location.map { " (Location: \($0))" } ?? "")
    case .upgradeNotWebSocket(let value):
      "response 'Upgrade' header is \(value.map { "'\($0)'" } ?? "missing"), expected 'websocket'"
    case .connectionNotUpgrade(let value):
      "response 'Connection' header is \(value.map { "'\($0)'" } ?? "missing"), expected 'Upgrade'"
    case .invalidAccept(let expected, let received):
      "Sec-WebSocket-Accept is '\(received)', expected '\(expected)'"
    case .unrequestedSubprotocol(let name):
      "server selected subprotocol '\(name)', which was not offered"
    case .unrequestedExtension(let name):
      "server selected extension '\(name)', which was not offered"
    case .invalidExtension(let why): "invalid permessage-deflate response: \(why)"
    case .connectionClosed: "connection closed during the opening handshake"
    }
  }
}
