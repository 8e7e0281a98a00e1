/// A `ws://` or `wss://` URL, parsed into what a client needs to connect and to build the
/// opening handshake (RFC 6455 §3).
public struct WebSocketURL: Sendable, Hashable, CustomStringConvertible {
  /// `true` for `wss://` (TLS).
  public var isSecure: Bool
  /// The host to connect to: a name, an IPv4 address, or an IPv6 address without brackets.
  public var host: String
  public var port: Int
  /// Path and query, as sent on the request line; `/` when the URL has no path.
  public var requestTarget: String

  public var isIPv6Literal: Bool { host.contains(":") }

  /// The host as written inside brackets or on its own: an IPv6 zone id (`%eth0`) is for
  /// this machine's routing only and stays out of the `Host` header.
  private var hostForHeader: String {
    guard isIPv6Literal else { return host }
    return "[\(host.split(separator: "%", maxSplits: 1).first ?? "")]"
  }

  public var defaultPort: Int { isSecure ? 443 : 80 }

  /// The `Host` header value: the port only when it is not the scheme's default,
  /// IPv6 literals in brackets (RFC 6455 §4.1, RFC 7230 §5.4).
  public var hostHeader: String {
    port == defaultPort ? hostForHeader : "\(hostForHeader):\(port)"
  }

  public var description: String {
    let bracketed = isIPv6Literal ? "[\(host)]" : host
    return "\(isSecure ? "wss" : "ws")://\(bracketed):\(port)\(requestTarget)"
  }

  public init(isSecure: Bool, host: String, port: Int? = nil, requestTarget: String = "/") {
    self.isSecure = isSecure
    self.host = host
    self.port = port ?? (isSecure ? 443 : 80)
    self.requestTarget = requestTarget
  }

  /// Parses `ws://host[:port][/path][?query]` or the `wss` form.
  public init(_ string: String) throws(URLError) {
    guard let separator = string.firstRange(of: "://") else { throw .missingScheme(string) }
    switch string[..<separator.lowerBound].lowercased() {
    case "ws": isSecure = false
    case "wss": isSecure = true
    case let other: throw .unsupportedScheme(other)
    }
    let rest = string[separator.upperBound...]
    let endsAuthority: (Character) -> Bool = { $0 == "/" || $0 == "?" || $0 == "#" }
    let authorityEnd = rest.firstIndex(where: endsAuthority) ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    if authority.contains("@") { throw .userInfoNotAllowed }
    (host, port) = try Self.parseAuthority(authority, defaultPort: isSecure ? 443 : 80)

    var target = rest[authorityEnd...]
    if let hash = target.firstIndex(of: "#") {
      throw .fragmentNotAllowed(String(target[hash...]))
    }
    if target.first == "?" || target.isEmpty {
      target = "/" + target
    }
    requestTarget = try Self.encodeRequestTarget(target)
  }

  private static func parseAuthority(_ authority: Substring, defaultPort: Int) throws(URLError) -> (
    String, Int
  ) {
    var hostPart: Substring
    var portPart: Substring?
    if authority.first == "[" {
      guard let close = authority.firstIndex(of: "]") else { throw .invalidHost(String(authority)) }
      hostPart = authority[authority.index(after: authority.startIndex)..<close]
      let afterBracket = authority[authority.index(after: close)...]
      if !afterBracket.isEmpty {
        guard afterBracket.first == ":" else { throw .invalidHost(String(authority)) }
        portPart = afterBracket.dropFirst()
      }
      guard let literal = ipv6Host(hostPart) else { throw .invalidHost(String(authority)) }
      hostPart = Substring(literal)
    } else {
      if let colon = authority.lastIndex(of: ":") {
        hostPart = authority[..<colon]
        portPart = authority[authority.index(after: colon)...]
      } else {
        hostPart = authority
      }
      guard !hostPart.isEmpty else { throw .missingHost }
      guard hostPart.utf8.allSatisfy(isRegisteredNameByte) else {
        throw .invalidHost(String(hostPart))
      }
    }
    var port = defaultPort
    if let portPart, !portPart.isEmpty {
      guard portPart.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(portPart),
        (1...65535).contains(value)
      else { throw .invalidPort(String(portPart)) }
      port = value
    }
    let host = authority.first == "[" ? String(hostPart) : hostPart.lowercased()
    return (host, port)
  }

  // RFC 3986 reg-name: unreserved, sub-delims and percent-encodings.
  private static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("-._~%!$&'()*+,;=".utf8).contains(byte)
    }
  }

  /// The address of a bracketed IPv6 literal, with its zone id (RFC 6874: `%25` then
  /// unreserved characters) decoded to `%zone` for the transport; `nil` when malformed.
  private static func ipv6Host(_ literal: Substring) -> String? {
    var address = literal
    var zone: Substring = ""
    if let percent = literal.firstIndex(of: "%") {
      address = literal[..<percent]
      let encodedZone = literal[percent...]
      guard encodedZone.hasPrefix("%25") else { return nil }
      zone = encodedZone.dropFirst(3)
      let isUnreserved: (UInt8) -> Bool = { byte in
        isRegisteredNameByte(byte) && !Array("%!$&'()*+,;=".utf8).contains(byte)
      }
      guard !zone.isEmpty, zone.utf8.allSatisfy(isUnreserved) else { return nil }
    }
    let isAddressByte: (UInt8) -> Bool = { byte in
      byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
    guard address.contains(":"), address.utf8.allSatisfy(isAddressByte) else { return nil }
    return zone.isEmpty ? String(address) : "\(address)%\(zone)"
  }

  /// Keeps path and query as given, percent-encoding spaces and non-ASCII bytes the way
  /// browsers do; refuses control characters, which could split the request line.
  private static func encodeRequestTarget(_ target: Substring) throws(URLError) -> String {
    var encoded = ""
    for byte in target.utf8 {
      switch byte {
      case 0..<0x20, 0x7F:
        throw .invalidCharacter(byte)
      case 0x20, 0x80...:
        let hex = Array("0123456789ABCDEF".utf8)
        encoded.append("%")
        encoded.unicodeScalars.append(UnicodeScalar(hex[Int(byte >> 4)]))
        encoded.unicodeScalars.append(UnicodeScalar(hex[Int(byte & 0xF)]))
      default:
        encoded.unicodeScalars.append(UnicodeScalar(byte))
      }
    }
    return encoded
  }
}

/// Why a string is not a usable WebSocket URL.
public enum URLError: Error, Sendable, Equatable, CustomStringConvertible {
  case missingScheme(String)
  case unsupportedScheme(String)
  case userInfoNotAllowed
  case missingHost
  case invalidHost(String)
  case invalidPort(String)
  case fragmentNotAllowed(String)
  case invalidCharacter(UInt8)

  public var description: String {
    switch self {
    case .missingScheme(let url): "'\(url)' is not a URL: expected ws://host[:port]/path or wss://…"
    case .unsupportedScheme(let scheme): "unsupported URL scheme '\(scheme)': use ws:// or wss://"
    case .userInfoNotAllowed:
      "user name and password in a WebSocket URL are not supported; send credentials in a header"
    case .missingHost: "the URL has no host"
    case .invalidHost(let host): "invalid host '\(host)'"
    case .invalidPort(let port): "invalid port '\(port)': expected 1–65535"
    case .fragmentNotAllowed(let fragment):
      "a WebSocket URL must not have a fragment ('\(fragment)', RFC 6455 §3)"
    case .invalidCharacter(let byte): "control character 0x\(String(byte, radix: 16)) in the URL"
    }
  }
}
