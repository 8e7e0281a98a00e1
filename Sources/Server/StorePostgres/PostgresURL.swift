import Foundation
import QnAStore

/// `--db postgres://USER[:PASS]@HOST[:PORT][,HOST[:PORT]…]/DB[?sslmode=…&target_session_attrs=…]`,
/// libpq's URL form. `disable`, `allow` and `prefer` connect without TLS where the server has
/// none; `require`, `verify-ca` and `verify-full` refuse to. Without `sslmode`: `prefer` to
/// loopback hosts (nobody between to strip TLS), `require` if any is another, stricter than
/// libpq's `prefer` because the database holds presenter tokens and attendee credentials.
/// Several hosts are tried in order, as libpq does; `target_session_attrs=read-write` (or
/// `primary`) skips those that take no writes (a standby), which is how every instance
/// follows a promoted standby.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
  public enum TLSMode: String, Sendable {
    case disable, prefer, require
    /// `require` with the server's certificate checked against the system's trust roots.
    case verify
  }

  /// Which server of several a connection may settle on.
  public enum Target: String, Sendable {
    /// The first that answers (libpq's default).
    case any
    /// The first that takes writes: not a standby, not `default_transaction_read_only`.
    case readWrite = "read-write"
  }

  public struct Endpoint: Sendable, Hashable {
    public var host: String
    public var port: Int
  }

  public var user: String
  public var password: String?
  /// In the order they are tried.
  public var endpoints: [Endpoint]
  public var database: String
  public var tls: TLSMode
  public var target: Target

  /// The first host, and its port.
  public var host: String { endpoints[0].host }
  public var port: Int { endpoints[0].port }

  public static func isPostgres(_ location: String) -> Bool {
    location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
  }

  public init(_ text: String) throws(StoreError) {
    func invalid(_ why: String) -> StoreError {
      // Not the URL itself: any part of it may hold a password.
      .unavailable(
        "--db: \(why) (expected postgres://USER[:PASSWORD]@HOST[:PORT][,HOST[:PORT]…]/DATABASE[?sslmode=disable|prefer|require|verify-full][&target_session_attrs=any|read-write])"
      )
    }
    guard Self.isPostgres(text), let schemeEnd = text.range(of: "://") else {
      throw invalid("not a URL")
    }
    // The authority runs to the first "/" or "?"; its hosts follow the last "@".
    let rest = text[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    guard let at = authority.lastIndex(of: "@") else { throw invalid("no user") }
    let hostList = authority[authority.index(after: at)...]
    // The first host stands in for all while the rest of the URL is read.
    let hostTexts = hostList.split(separator: ",", omittingEmptySubsequences: false)
    guard
      let url = URLComponents(
        string: "postgres://" + authority[..<at] + "@" + (hostTexts.first ?? "")
          + rest[authorityEnd...])
    else { throw invalid("not a URL") }
    guard let user = url.percentEncodedUser.flatMap({ $0.removingPercentEncoding }),
      !user.isEmpty
    else { throw invalid("no user") }
    var endpoints: [Endpoint] = []
    for hostText in hostTexts {
      guard let parsed = URLComponents(string: "postgres://u@\(hostText)/d"),
        let host = parsed.host, !host.isEmpty
      else { throw invalid("no host") }
      if let port = parsed.port, !(1...65535).contains(port) {
        throw invalid("port out of range")
      }
      // IPv6 literals come bracketed.
      endpoints.append(
        Endpoint(
          host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host,
          port: parsed.port ?? 5432))
    }
    guard !endpoints.isEmpty, endpoints.count <= Self.maxHosts else {
      throw invalid("1–\(Self.maxHosts) hosts")
    }
    let database = String(url.path.drop(while: { $0 == "/" }))
    guard !database.isEmpty, !database.contains("/") else { throw invalid("no database name") }
    var tls: TLSMode?
    var target = Target.any
    for item in url.queryItems ?? [] {
      switch (item.name, item.value ?? "") {
      case ("sslmode", "disable"): tls = .disable
      case ("sslmode", "allow"), ("sslmode", "prefer"): tls = .prefer
      case ("sslmode", "require"): tls = .require
      case ("sslmode", "verify-ca"), ("sslmode", "verify-full"): tls = .verify
      case ("sslmode", _): throw invalid("unknown sslmode")
      case ("target_session_attrs", "any"): target = .any
      case ("target_session_attrs", "read-write"), ("target_session_attrs", "primary"):
        target = .readWrite
      case ("target_session_attrs", _): throw invalid("unknown target_session_attrs")
      case (let name, _):
        throw invalid(
          "unknown parameter \(name.allSatisfy { $0.isLetter || $0 == "_" } ? name : "")")
      }
    }
    self.user = user
    password = url.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
    self.endpoints = endpoints
    self.database = database.removingPercentEncoding ?? database
    self.target = target
    self.tls = tls ?? (endpoints.allSatisfy { Self.isLoopback($0.host) } ? .prefer : .require)
  }

  /// Hosts one URL may name.
  public static let maxHosts = 16

  /// Whether `host` is this machine: `localhost` or a loopback address.
  static func isLoopback(_ host: String) -> Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  /// What the operator must hear at start-up about this connection's TLS, if anything.
  public var tlsWarning: String? {
    guard let remote = endpoints.first(where: { !Self.isLoopback($0.host) })?.host else {
      return nil
    }
    switch tls {
    case .disable, .prefer:
      return """
        sslmode=\(tls.rawValue) to \(remote): anyone on the path can read or change the database's \
        traffic (presenter tokens, attendee credentials) and can strip TLS; use \
        sslmode=verify-full
        """
    case .require:
      return """
        sslmode=require to \(remote): encrypted, but the server's certificate is not checked; \
        use sslmode=verify-full where the database's certificate chains to a trusted root
        """
    case .verify: return nil
    }
  }

  /// For logs and errors: everything but the password.
  public var description: String {
    let hosts = endpoints.map { ($0.host.contains(":") ? "[\($0.host)]" : $0.host) + ":\($0.port)" }
    return "postgres://\(user)\(password == nil ? "" : ":***")@\(hosts.joined(separator: ","))/"
      + "\(database)?sslmode=\(tls == .verify ? "verify-full" : tls.rawValue)"
      + (target == .any ? "" : "&target_session_attrs=\(target.rawValue)")
  }
}
