import Foundation
import QnAStore

/// `--db postgres://USER[:PASS]@HOST[:PORT]/DB[?sslmode=…]`, libpq's URL form. `disable`,
/// `allow` and `prefer` connect without TLS where the server has none; `require`,
/// `verify-ca` and `verify-full` refuse to. Without `sslmode`: `prefer` to a loopback host
/// (nobody between to strip TLS), `require` to any other, stricter than libpq's `prefer`
/// because the database holds presenter tokens and attendee credentials.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
  public enum TLSMode: String, Sendable {
    case disable, prefer, require
    /// `require` with the server's certificate checked against the system's trust roots.
    case verify
  }

  public var user: String
  public var password: String?
  public var host: String
  public var port: Int
  public var database: String
  public var tls: TLSMode

  public static func isPostgres(_ location: String) -> Bool {
    location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
  }

  public init(_ text: String) throws(StoreError) {
    func invalid(_ why: String) -> StoreError {
      // Not the URL itself: any part of it may hold a password.
      .unavailable(
        "--db: \(why) (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require|verify-full])"
      )
    }
    guard Self.isPostgres(text), let url = URLComponents(string: text) else {
      throw invalid("not a URL")
    }
    guard let user = url.percentEncodedUser.flatMap({ $0.removingPercentEncoding }),
      !user.isEmpty
    else { throw invalid("no user") }
    guard let host = url.host, !host.isEmpty else { throw invalid("no host") }
    let database = String(url.path.drop(while: { $0 == "/" }))
    guard !database.isEmpty, !database.contains("/") else { throw invalid("no database name") }
    if let port = url.port, !(1...65535).contains(port) { throw invalid("port out of range") }
    var tls: TLSMode?
    for item in url.queryItems ?? [] {
      switch (item.name, item.value ?? "") {
      case ("sslmode", "disable"): tls = .disable
      case ("sslmode", "allow"), ("sslmode", "prefer"): tls = .prefer
      case ("sslmode", "require"): tls = .require
      case ("sslmode", "verify-ca"), ("sslmode", "verify-full"): tls = .verify
      case ("sslmode", _): throw invalid("unknown sslmode")
      case (let name, _):
        throw invalid(
          "unknown parameter \(name.allSatisfy { $0.isLetter || $0 == "_" } ? name : "")")
      }
    }
    self.user = user
    password = url.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
    // IPv6 literals come bracketed.
    self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
    port = url.port ?? 5432
    self.database = database.removingPercentEncoding ?? database
    self.tls = tls ?? (Self.isLoopback(self.host) ? .prefer : .require)
  }

  /// Whether `host` is this machine: `localhost` or a loopback address.
  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  /// What the operator must hear at start-up about this connection's TLS, if anything.
  public var tlsWarning: String? {
    guard !Self.isLoopback(host) else { return nil }
    switch tls {
    case .disable, .prefer:
      return """
        sslmode=\(tls.rawValue) to \(host): anyone on the path can read or change the database's \
        traffic (presenter tokens, attendee credentials) and can strip TLS; use \
        sslmode=verify-full
        """
    case .require:
      return """
        sslmode=require to \(host): encrypted, but the server's certificate is not checked; \
        use sslmode=verify-full where the database's certificate chains to a trusted root
        """
    case .verify: return nil
    }
  }

  /// For logs and errors: everything but the password.
  public var description: String {
    "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)?sslmode=\(tls.rawValue)"
  }

}
