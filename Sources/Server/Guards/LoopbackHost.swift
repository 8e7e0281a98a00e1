/// Whether a `Host` value (or a bind address) names this machine's loopback interface, and
/// nothing else: a literal IPv4 address in 127.0.0.0/8, `[::1]`, or `localhost` in any case
/// with an optional trailing dot, each with an optional port. `127.evil.example`,
/// `127.0.0.1.nip.io` and `localhost.evil.example` are names a web page can rebind to any
/// address, so they are not loopback here.
package enum LoopbackHost {
  /// A `Host` header value: `host[:port]`, IPv6 in brackets.
  package static func isLoopback(authority: String) -> Bool {
    guard let (host, port) = split(authority) else { return false }
    if let port, !isPort(port) { return false }
    return isLoopback(host: host, bracketed: authority.hasPrefix("["))
  }

  /// A bind address as `--host` takes it: no port, IPv6 with or without brackets.
  package static func isLoopback(bindAddress: String) -> Bool {
    if bindAddress.hasPrefix("[") { return isLoopback(authority: bindAddress) }
    return isLoopback(host: Substring(bindAddress), bracketed: bindAddress.contains(":"))
  }

  private static func isLoopback(host: Substring, bracketed: Bool) -> Bool {
    if bracketed { return host == "::1" || host == "0:0:0:0:0:0:0:1" }
    var name = host.lowercased()
    if name.hasSuffix(".") { name.removeLast() }
    if name == "localhost" { return true }
    guard let octets = ipv4Octets(name) else { return false }
    return octets[0] == 127
  }

  /// Host and port of `host[:port]` or `[v6][:port]`; `nil` when malformed.
  private static func split(_ authority: String) -> (Substring, Substring?)? {
    let text = Substring(authority)
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      let host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      if rest.isEmpty { return (host, nil) }
      guard rest.hasPrefix(":") else { return nil }
      return (host, rest.dropFirst())
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    switch parts.count {
    case 1: return (parts[0], nil)
    case 2: return (parts[0], parts[1])
    default: return nil
    }
  }

  private static func isPort(_ text: Substring) -> Bool {
    guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int(text), value <= 65535
    else { return false }
    return true
  }

  /// Four decimal octets of 0–255, written plainly (no leading zeros, which some parsers
  /// read as octal).
  private static func ipv4Octets(_ text: String) -> [Int]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var octets: [Int] = []
    for part in parts {
      guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
        part == "0" || !part.hasPrefix("0"), let value = Int(part), value <= 255
      else { return nil }
      octets.append(value)
    }
    return octets
  }
}
