import NIOHTTP1

/// Who may open a presenter's WebSocket (`/socket?role=presenter`, or any upgrade carrying
/// `Authorization`): with an admin token set, the request must carry it as a bearer token or
/// the login form's session cookie, else 401; wrong tokens are throttled per address as at
/// the login form. Without an admin token the server answers to loopback names only, and a
/// presenter's socket is as open as the presenter's page.
struct PresenterSocketAuth: Sendable {
  let token: String?
  let sessions: PresenterSessions
  let throttle: LoginThrottle

  enum Verdict: Equatable {
    case attendee
    case presenter
    /// 401, answered after `wait` (the throttle's turn for a wrong guess).
    case refuse(wait: Duration)
  }

  /// Whether a WebSocket upgrade asks to be a presenter's: `role=presenter` in the query of
  /// the request target as sent, or an `Authorization` header. The gate and the socket's route
  /// both decide with this, on the same raw target, so they can never disagree.
  static func asksForPresenter(target: String, hasAuthorization: Bool) -> Bool {
    if hasAuthorization { return true }
    guard let mark = target.firstIndex(of: "?") else { return false }
    let query = target[target.index(after: mark)...].prefix { $0 != "#" }
    return query.split(separator: "&").contains { $0 == "role=presenter" }
  }

  func judge(_ head: HTTPRequestHead, peer: String) -> Verdict {
    // A session's socket is judged by its route, against that session's token.
    if Self.sessionCode(ofTarget: head.uri) != nil { return .attendee }
    let authorization = head.headers["Authorization"]
    guard Self.asksForPresenter(target: head.uri, hasAuthorization: !authorization.isEmpty)
    else {
      return .attendee
    }
    guard let token else { return .presenter }
    if authorization.count == 1, let header = authorization.first, header.hasPrefix("Bearer ") {
      let correct = ConstantTime.equal(String(header.dropFirst(7)), token)
      return correct ? .presenter : .refuse(wait: throttle.failed(peer))
    }
    if authorization.isEmpty, let session = sessionCookie(head), sessions.isValid(session) {
      return .presenter
    }
    return .refuse(wait: authorization.isEmpty ? .zero : throttle.failed(peer))
  }

  /// The code of a session's socket target, `/s/CODE/socket` (origin form, or after
  /// `scheme://host` in absolute form), with a code of letters and digits; `nil` for any other
  /// target. Nothing a router could read as another path (dot segments, escapes, doubled
  /// slashes) is let past the gate this way. The gate and the session's judge both use it.
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

  private func sessionCookie(_ head: HTTPRequestHead) -> String? {
    let values = AdminAuth<ServerRequestContext>.sessionCookies(in: head.headers["Cookie"])
    return values.count == 1 ? String(values[0]) : nil
  }

}
