/// A proxy to reach WebSocket servers through, parsed from a URL such as
/// `http://user:pass@proxy.example:3128` or `socks5h://127.0.0.1:1080`.
///
/// `http://` (or no scheme, as curl reads one) is an HTTP proxy spoken to with `CONNECT`;
/// `socks5://` and `socks5h://` are SOCKS5, and both let the proxy resolve the host name, so
/// a name that only the proxy's side can resolve still works. Credentials are percent-decoded
/// and never part of the description, so an error or a log line cannot leak them.
public struct ProxyEndpoint: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    case httpConnect
    case socks5
  }

  public var kind: Kind
  /// A name, an IPv4 address, or an IPv6 address without brackets.
  public var host: String
  public var port: Int
  public var credentials: ProxyCredentials?

  public init(kind: Kind, host: String, port: Int, credentials: ProxyCredentials? = nil) {
    self.kind = kind
    self.host = host
    self.port = port
    self.credentials = credentials
  }

  /// `http://127.0.0.1:3128`: where the proxy is, without its credentials.
  public var description: String {
    let scheme = kind == .httpConnect ? "http" : "socks5"
    return "\(scheme)://\(HostPort.format(host: host, port: port))"
  }

  public init(_ text: String) throws(ProxyURLError) {
    var rest = Substring(text.trimmingWhitespace())
    if rest.isEmpty { throw .empty }
    kind = .httpConnect
    var defaultPort = 80
    if let separator = rest.firstRange(of: "://") {
      switch rest[..<separator.lowerBound].lowercased() {
      case "http": kind = .httpConnect
      case "socks5", "socks5h":
        kind = .socks5
        defaultPort = 1080
      case "https": throw .unsupportedScheme("https (TLS to the proxy itself)")
      case let other: throw .unsupportedScheme(other)
      }
      rest = rest[separator.upperBound...]
    }
    if let slash = rest.firstIndex(of: "/") {
      guard rest[slash...] == "/" else { throw .pathNotAllowed }
      rest = rest[..<slash]
    }
    credentials = nil
    if let at = rest.lastIndex(of: "@") {
      credentials = try ProxyCredentials(userInfo: rest[..<at])
      rest = rest[rest.index(after: at)...]
    }
    guard let parsed = HostPort.parse(rest, defaultPort: defaultPort) else {
      throw .badAuthority(String(rest))
    }
    (host, port) = parsed
  }
}

/// A user name and password for a proxy. Printed redacted.
public struct ProxyCredentials: Sendable, Hashable, CustomStringConvertible {
  public var username: String
  public var password: String

  public init(username: String, password: String) {
    self.username = username
    self.password = password
  }

  /// `user:pass`, each part percent-decoded; a missing password is empty.
  init(userInfo: Substring) throws(ProxyURLError) {
    let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard let user = PercentDecoding.decode(parts[0]),
      let password = PercentDecoding.decode(parts.count > 1 ? parts[1] : "")
    else { throw .badCredentials }
    username = user
    self.password = password
  }

  public var description: String { "<credentials>" }
}

public enum ProxyURLError: Error, Sendable, Hashable, CustomStringConvertible {
  case empty
  case unsupportedScheme(String)
  case pathNotAllowed
  case badAuthority(String)
  case badCredentials

  public var description: String {
    switch self {
    case .empty: "the proxy URL is empty"
    case .unsupportedScheme(let scheme):
      "unsupported proxy scheme \(scheme) (use http://, socks5:// or socks5h://)"
    case .pathNotAllowed: "a proxy URL has no path"
    case .badAuthority(let authority): "bad proxy host or port: \(authority)"
    case .badCredentials: "bad percent-encoding in the proxy's user name or password"
    }
  }
}

extension StringProtocol {
  func trimmingWhitespace() -> SubSequence {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
    return self[start..<end]
  }
}
