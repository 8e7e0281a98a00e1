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
  /// `ws://HOST:PORT/s/CODE/socket`. `nil` if `url` has no scheme and host.
  public static func socketURL(server url: String, code: String) -> String? {
    guard let schemeEnd = url.firstRange(of: "://") else { return nil }
    let rest = url[schemeEnd.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty else { return nil }
    return url[..<schemeEnd.upperBound] + authority + "/s/\(code)/socket"
  }
}
