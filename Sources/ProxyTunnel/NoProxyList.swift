/// The destinations `no_proxy` sends direct: a comma-separated list of
/// - `*`: everything;
/// - host names, matched with their subdomains (`example.com` and `.example.com` both match
///   `example.com` and `api.example.com`, never `badexample.com`), case-insensitively;
/// - IP literals (`127.0.0.1`, `::1` or `[::1]`), and IPv4 ranges in CIDR form (`10.0.0.0/8`);
/// - any of these with `:port`, which then matches that port only.
public struct NoProxyList: Sendable, Hashable {
  enum Entry: Sendable, Hashable {
    case everything
    case domain(String, port: Int?)
    case address(String, port: Int?)
    case ipv4Range(network: UInt32, prefix: Int, port: Int?)
  }

  var entries: [Entry]

  public init(_ text: String = "") {
    entries = text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).compactMap(Self.entry)
  }

  public var isEmpty: Bool { entries.isEmpty }

  public func matches(host: String, port: Int) -> Bool {
    let name = Self.normalized(host)
    let ipv4 = IPv4.parse(name)
    return entries.contains { entry in
      switch entry {
      case .everything: return true
      case .domain(let domain, let wanted):
        guard wanted == nil || wanted == port else { return false }
        return name == domain || name.hasSuffix("." + domain)
      case .address(let address, let wanted):
        return (wanted == nil || wanted == port) && name == address
      case .ipv4Range(let network, let prefix, let wanted):
        guard wanted == nil || wanted == port, let ipv4 else { return false }
        return IPv4.mask(ipv4, prefix) == network
      }
    }
  }

  private static func entry(_ raw: Substring) -> Entry? {
    if raw == "*" { return .everything }
    var text = raw
    if text.hasPrefix("*.") { text = text.dropFirst(2) }
    while text.first == "." { text = text.dropFirst() }
    if let slash = text.firstIndex(of: "/") {
      guard let network = IPv4.parse(String(text[..<slash])),
        let prefix = Int(text[text.index(after: slash)...]), (0...32).contains(prefix)
      else { return nil }
      return .ipv4Range(network: IPv4.mask(network, prefix), prefix: prefix, port: nil)
    }
    // A bare IPv6 literal has colons but no brackets: the whole of it is the address.
    if text.first != "[", text.filter({ $0 == ":" }).count > 1 {
      return .address(normalized(String(text)), port: nil)
    }
    guard let (host, port) = HostPort.parse(text, defaultPort: -1) else { return nil }
    let wanted = port == -1 ? nil : port
    let name = normalized(host)
    if host.contains(":") || IPv4.parse(name) != nil { return .address(name, port: wanted) }
    return .domain(name, port: wanted)
  }

  /// Lower case, without a trailing dot or brackets, so `Example.COM.` matches `example.com`.
  private static func normalized(_ host: String) -> String {
    var name = Substring(host.lowercased())
    if name.first == "[", name.last == "]" { name = name.dropFirst().dropLast() }
    while name.last == "." { name = name.dropLast() }
    return String(name)
  }
}

/// Dotted-quad IPv4 addresses, strictly (four decimal parts, each 0–255).
enum IPv4 {
  static func parse(_ text: String) -> UInt32? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var value: UInt32 = 0
    for part in parts {
      guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit), let byte = UInt8(part)
      else { return nil }
      value = value << 8 | UInt32(byte)
    }
    return value
  }

  static func bytes(_ text: String) -> [UInt8]? {
    parse(text).map { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
  }

  static func mask(_ address: UInt32, _ prefix: Int) -> UInt32 {
    prefix == 0 ? 0 : address & ~UInt32(0) << (32 - prefix)
  }
}
