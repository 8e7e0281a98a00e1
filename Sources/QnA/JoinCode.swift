/// A session's join code: 6 characters from an alphabet without look-alikes (no 0/O, 1/I),
/// printed upper case and accepted in any case.
public enum JoinCode {
  public static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
  public static let length = 6

  /// A code as typed, made canonical; `nil` if it cannot be one.
  public static func canonical(_ typed: String) -> String? {
    let code = typed.uppercased()
    guard code.count == length, code.allSatisfy(alphabet.contains) else { return nil }
    return code
  }

  /// The session's socket on the server of `url` (any path it has is replaced):
  /// `ws://HOST:PORT/s/CODE/socket`; `http://` becomes `ws://` and `https://` `wss://`, as the
  /// page maps its own address. `nil` if `url` has no scheme and host.
  public static func socketURL(server url: String, code: String) -> String? {
    guard let (scheme, authority, _) = parts(url) else { return nil }
    return "\(socketScheme(scheme))://\(authority)/s/\(code)/socket"
  }

  /// A session's address as the server prints it and the QR code holds it
  /// (`http://HOST:PORT/s/CODE/`, `https://…`, or its socket, `ws://…/s/CODE/socket`): its
  /// code and its socket, a path before `/s/` kept (a server under a prefix). `nil` when
  /// `typed` is no such address.
  public static func link(_ typed: String) -> (code: String, socket: String)? {
    guard let (scheme, authority, path) = parts(typed) else { return nil }
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    guard let marker = segments.lastIndex(of: "s"), marker + 1 < segments.count,
      let code = canonical(String(segments[marker + 1]))
    else { return nil }
    let prefix = segments[..<marker].joined(separator: "/")
    return (code, "\(socketScheme(scheme))://\(authority)\(prefix)/s/\(code)/socket")
  }

  /// `url`'s scheme, authority and path (without query or fragment).
  private static func parts(_ url: String) -> (Substring, Substring, Substring)? {
    guard let schemeEnd = url.firstRange(of: "://") else { return nil }
    let scheme = url[..<schemeEnd.lowerBound]
    let rest = url[schemeEnd.upperBound...].prefix { $0 != "?" && $0 != "#" }
    let authority = rest.prefix { $0 != "/" }
    guard !scheme.isEmpty, !authority.isEmpty else { return nil }
    return (scheme, authority, rest[authority.endIndex...])
  }

  /// The socket's scheme for a page's: the page is served where its socket is.
  private static func socketScheme(_ scheme: Substring) -> String {
    switch scheme.lowercased() {
    case "http": "ws"
    case "https": "wss"
    default: String(scheme)
    }
  }
}
