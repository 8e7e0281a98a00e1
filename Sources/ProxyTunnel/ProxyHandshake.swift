/// The conversation with a proxy that opens a tunnel to the destination, without I/O: it
/// says what to send, and reads what the proxy answers until the tunnel is open or refused.
public protocol ProxyHandshake: Sendable {
  /// The first bytes to send.
  mutating func start() -> [UInt8]
  /// The proxy's next bytes, in any pieces. Throws when the proxy refused or broke the
  /// protocol; bytes after the proxy's answer belong to the tunnel and come back in
  /// `.established`.
  mutating func receive(_ bytes: some Collection<UInt8>) throws(ProxyError) -> ProxyStep
  /// Why the tunnel failed when the proxy closed the connection before it opened: what
  /// the proxy was answering tells (some close instead of refusing credentials).
  func closedEarly() -> ProxyError
}

extension ProxyHandshake {
  public func closedEarly() -> ProxyError { .closedEarly(hint: nil) }
}

public enum ProxyStep: Sendable, Hashable {
  /// Send these, then go on reading.
  case send([UInt8])
  /// Go on reading.
  case waiting
  /// The tunnel is open; `leftover` is what the destination already sent through it.
  case established(leftover: [UInt8])
}

/// Why a proxy did not open the tunnel. Never carries credentials.
public enum ProxyError: Error, Sendable, Hashable, CustomStringConvertible {
  /// An HTTP proxy answered `CONNECT` with another status (407, 403, 502…).
  case refused(status: Int, reason: String)
  /// A SOCKS5 proxy's reply code other than success (RFC 1928 §6).
  case socksRefused(code: UInt8)
  /// The SOCKS5 proxy accepts none of the methods offered (0xFF): it wants credentials
  /// that were not given, or other methods.
  case socksNoAcceptableMethod
  /// The SOCKS5 proxy rejected the user name and password (RFC 1929).
  case socksAuthenticationFailed
  /// The answer is not the protocol: not HTTP, a wrong SOCKS version, a bad address type.
  case malformed(String)
  /// An HTTP proxy's answer did not end within this many bytes.
  case answerTooLong(limit: Int)
  /// The destination cannot be asked for: a SOCKS5 name over 255 bytes, credentials over 255.
  case unsupportedRequest(String)
  /// The proxy closed the connection before the tunnel opened; `hint` says what that may mean.
  case closedEarly(hint: String?)

  /// A refusal that asking again would only repeat: wrong or missing credentials, a
  /// destination the proxy's rules forbid. Like a 4xx answer to the WebSocket upgrade, the
  /// reconnect policy does not retry it; a 502 or an unreachable host may pass.
  public var isPermanent: Bool {
    switch self {
    case .refused(let status, _): (400..<500).contains(status) && status != 408 && status != 429
    case .socksRefused(let code): code == 0x02
    case .socksNoAcceptableMethod, .socksAuthenticationFailed, .unsupportedRequest: true
    case .malformed, .answerTooLong, .closedEarly: false
    }
  }

  public var description: String {
    switch self {
    case .refused(let status, let reason):
      "refused the tunnel with HTTP \(status)\(reason.isEmpty ? "" : " \(reason)")"
    case .socksRefused(let code): "refused the tunnel: \(Self.socksReply(code))"
    case .socksNoAcceptableMethod:
      "accepts none of the offered authentication methods (are credentials missing?)"
    case .socksAuthenticationFailed: "rejected the user name and password"
    case .malformed(let detail): "answered outside the protocol: \(detail)"
    case .answerTooLong(let limit): "sent an answer longer than \(limit) bytes"
    case .unsupportedRequest(let detail): detail
    case .closedEarly(let hint):
      "closed the connection before the tunnel opened" + (hint.map { " (\($0))" } ?? "")
    }
  }

  /// RFC 1928 §6's reply codes, in words.
  static func socksReply(_ code: UInt8) -> String {
    switch code {
    case 0x01: "general SOCKS server failure"
    case 0x02: "connection not allowed by ruleset"
    case 0x03: "network unreachable"
    case 0x04: "host unreachable"
    case 0x05: "connection refused"
    case 0x06: "TTL expired"
    case 0x07: "command not supported"
    case 0x08: "address type not supported"
    default: "reply code \(code)"
    }
  }
}

extension ProxyEndpoint {
  /// The handshake that opens a tunnel through this proxy to `host:port`. `basicAuthorization`
  /// encodes `user:pass` as Base64 for HTTP proxies (the caller's encoder keeps this module
  /// free of one).
  public func handshake(
    toHost host: String, port: Int, basicAuthorization: (String) -> String
  ) throws(ProxyError) -> any ProxyHandshake {
    switch kind {
    case .httpConnect:
      let authorization = credentials.map {
        "Basic " + basicAuthorization("\($0.username):\($0.password)")
      }
      return try HTTPConnectHandshake(host: host, port: port, authorization: authorization)
    case .socks5:
      return try SOCKS5Handshake(host: host, port: port, credentials: credentials)
    }
  }
}
