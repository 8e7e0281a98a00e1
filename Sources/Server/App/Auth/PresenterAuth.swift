import Foundation
import QnAStore

/// Who is a presenter, decided in one place for every route and socket: the default room's
/// (the admin token, or an admin login) and each session's (its own presenter token, the
/// admin token, a login for that session, or an admin login).
///
/// A request offers credentials as `Authorization: Bearer TOKEN` or as a login cookie
/// (`qna_session` for the admin's login, `qna_session_CODE` for a session's, scoped to its
/// path). A wrong token counts against its address in the `GuessThrottle`; past its rate,
/// any token from the address, right or wrong, is refused at once as over the rate. A right
/// admin token forgets the address's wrong guesses (a session's token does not: its holder
/// could otherwise guess others' unthrottled).
struct PresenterAuth: Sendable {
  /// `nil`: a loopback-only server, whose presenters need no token.
  let adminToken: String?
  let logins: PresenterLogins
  let throttle: GuessThrottle
  /// Join codes no session has, looked up by any route: wrong guesses too (a right code
  /// never forgets them: an attendee holding one could otherwise guess others).
  let codeGuesses: GuessThrottle

  /// The admin's login cookie.
  static let adminCookie = "qna_session"
  static func sessionCookie(for code: String) -> String { "qna_session_\(code)" }

  /// What a presenter acts on: the default room and the admin's routes, or one session.
  enum Scope: Sendable {
    case admin
    case session(SessionRecord)

    /// The login cookies that admit to it, in the order they are read.
    var cookieNames: [String] {
      switch self {
      case .admin: [PresenterAuth.adminCookie]
      case .session(let session):
        [PresenterAuth.adminCookie, PresenterAuth.sessionCookie(for: session.code)]
      }
    }

    /// The session a login must be for (`nil`: an admin login).
    var loginScope: Int64? {
      if case .session(let session) = self { return session.id }
      return nil
    }

    /// The session's token as its row says now: its own logins admit while made with it.
    var sessionToken: String? {
      if case .session(let session) = self { return session.token }
      return nil
    }
  }

  /// What a request offers.
  enum Offer: Equatable {
    case none
    case token(String)
    /// Login ids from the scope's cookies. A cookie sent twice is left out: which one was
    /// meant cannot be known.
    case logins([String])
  }

  /// The one parser of `Authorization` and `Cookie` lines. An `Authorization` that is not
  /// one bearer token (a proxy's `Basic` login, say) is no presenter credential: the
  /// cookies decide.
  static func offer(authorization: [String], cookies: [String], names: [String]) -> Offer {
    if authorization.count == 1, authorization[0].hasPrefix("Bearer ") {
      return .token(String(authorization[0].dropFirst(7)))
    }
    var ids: [String] = []
    for name in names {
      let values = cookieValues(in: cookies, named: name)
      if values.count == 1, !values[0].isEmpty { ids.append(String(values[0])) }
    }
    return ids.isEmpty ? .none : .logins(ids)
  }

  /// Every value of the cookie `name` in these `Cookie` header lines.
  static func cookieValues(in lines: [String], named name: String) -> [Substring] {
    lines.flatMap { line in
      line.split(separator: ";").compactMap { pair -> Substring? in
        let trimmed = pair.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else {
          return nil
        }
        return trimmed[trimmed.index(after: equals)...]
      }
    }
  }

  /// The verdict on an offer.
  enum Decision: Equatable {
    case admitted
    case refused
    /// Tokens from the address are over the guessing rate: refused unjudged, until then.
    case overRate(retryAfter: Duration)
  }

  /// Judges `offer` for `scope`, counting a wrong token against `address`. The right admin
  /// token forgets the address's wrong guesses where `address` is the client's own
  /// (`forgets`): the request gate sees only the peer, a proxy's address behind one.
  /// Without an admin token, the default room's presenters need none.
  func judge(_ offer: Offer, for scope: Scope, from address: String, forgets: Bool = true)
    async -> Decision
  {
    if isOpen(scope) { return .admitted }
    switch offer {
    case .token(let offered):
      let verdict = tokenVerdict(offered, for: scope)
      guard verdict.admitted else {
        return await throttle.wrongGuess(address).map { .overRate(retryAfter: $0) } ?? .refused
      }
      // Asked after judging, as a wrong token is counted: over the rate, a right token is
      // refused as a wrong one would be, so that no answer tells them apart.
      if let wait = throttle.overRate(address) { return .overRate(retryAfter: wait) }
      if verdict.admin, forgets { throttle.forget(address) }
      return .admitted
    case .logins, .none:
      // A login id has 244 random bits: not for guessing, and not counted.
      return await admits(offer, to: scope) ? .admitted : .refused
    }
  }

  /// The same, without side effects: whether the offer admits (a route re-checking what the
  /// request gate already judged).
  func admits(_ offer: Offer, to scope: Scope) async -> Bool {
    if isOpen(scope) { return true }
    switch offer {
    case .token(let offered): return tokenVerdict(offered, for: scope).admitted
    case .logins(let ids):
      // Each login admits while the token that made it still does (`PresenterLogins`).
      for id in ids
      where await logins.isValid(
        id, for: scope.loginScope, adminToken: adminToken, sessionToken: scope.sessionToken)
      {
        return true
      }
      return false
    case .none: return false
    }
  }

  /// A loopback-only server without an admin token lets anyone present its default room.
  private func isOpen(_ scope: Scope) -> Bool {
    if case .admin = scope { return adminToken == nil }
    return false
  }

  /// Both tokens compared, whatever the first gives: no timing says which one matched.
  private func tokenVerdict(_ offered: String, for scope: Scope) -> (
    admitted: Bool, admin: Bool
  ) {
    let admin = adminToken.map { ConstantTime.equal(offered, $0) } ?? false
    var own = false
    if case .session(let session) = scope { own = ConstantTime.equal(offered, session.token) }
    return (admin || own, admin)
  }

  /// Whether a WebSocket upgrade asks to be a presenter's: `role=presenter` in the query of
  /// the request target as sent, or an `Authorization` header. The gate and the socket's
  /// route both decide with this, on the same raw target, so they can never disagree.
  static func asksForPresenter(target: String, hasAuthorization: Bool) -> Bool {
    if hasAuthorization { return true }
    guard let mark = target.firstIndex(of: "?") else { return false }
    let query = target[target.index(after: mark)...].prefix { $0 != "#" }
    return query.split(separator: "&").contains { $0 == "role=presenter" }
  }

  /// The code of a session's socket target, `/s/CODE/socket` (origin form, or after
  /// `scheme://host` in absolute form), with a code of letters and digits; `nil` for any other
  /// target. Nothing a router could read as another path (dot segments, escapes, doubled
  /// slashes) is let past the gate this way.
  static func sessionCode(ofTarget target: String) -> Substring? {
    var path = Substring(target)
    if !path.hasPrefix("/") {
      guard let scheme = path.range(of: "://") else { return nil }
      let afterScheme = path[scheme.upperBound...]
      guard let slash = afterScheme.firstIndex(of: "/") else { return nil }
      path = afterScheme[slash...]
    }
    path = path.prefix { $0 != "?" && $0 != "#" }
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0].isEmpty, parts[1] == "s", parts[3] == "socket",
      (1...16).contains(parts[2].count),
      parts[2].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    else { return nil }
    return parts[2]
  }
}
