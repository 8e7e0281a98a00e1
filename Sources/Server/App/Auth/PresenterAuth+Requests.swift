import Hummingbird
import NIOHTTP1
import QnAGuards
import QnARoom
import QnAStore

extension PresenterAuth {
  /// What an HTTP request offers for `scope`.
  func offer(of request: Request, for scope: Scope) -> Offer {
    Self.offer(
      authorization: request.headers[values: .authorization],
      cookies: request.headers[values: .cookie], names: scope.cookieNames)
  }

  /// What a request head offers for `scope` (the request gate's view, before any route).
  func offer(of head: HTTPRequestHead, for scope: Scope) -> Offer {
    Self.offer(
      authorization: head.headers["Authorization"], cookies: head.headers["Cookie"],
      names: scope.cookieNames)
  }

  /// Whether an upgrade asks for a presenter's socket.
  static func asksForPresenter(_ request: Request) -> Bool {
    asksForPresenter(
      target: request.uri.string, hasAuthorization: request.headers[.authorization] != nil)
  }

  static func asksForPresenter(_ head: HTTPRequestHead) -> Bool {
    asksForPresenter(target: head.uri, hasAuthorization: !head.headers["Authorization"].isEmpty)
  }

  static var unauthorized: Response {
    Response(
      status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"qna presenter\""])
  }

  /// The request gate's judge of WebSocket upgrades: a session's socket needs a session
  /// that exists (404; codes are not for guessing: past the address's rate, 429 for a right
  /// code and a wrong one alike), and a presenter's socket needs that scope's credentials
  /// (401). Attendees of a closed session get in: it stays readable.
  func upgradeJudge(rooms: SessionRooms) -> UpgradeJudge {
    { head, peer in
      if let code = Self.sessionCode(ofTarget: head.uri).map(String.init) {
        return .pending { await judgeSessionUpgrade(code: code, head: head, peer: peer, rooms) }
      }
      guard Self.asksForPresenter(head) else { return .decided(.pass) }
      // A login is a database read, and so may a wrong token's count be: both off the loop.
      return .pending {
        switch await judge(offer(of: head, for: .admin), for: .admin, from: peer, forgets: false) {
        case .admitted: return .pass
        case .refused: return .refuse(.unauthorized, "A presenter's socket needs the admin token.")
        case .overRate(let wait): return Self.overRate(wait)
        }
      }
    }
  }

  private func judgeSessionUpgrade(
    code: String, head: HTTPRequestHead, peer: String, _ rooms: SessionRooms
  ) async -> UpgradeVerdict {
    let found: (session: SessionRecord, room: SessionRoom)?
    do {
      found = try await rooms.resolve(code)
    } catch {
      return .refuse(.serviceUnavailable, "The sessions cannot be read now.")
    }
    guard let session = found?.session else {
      if let wait = await codeGuesses.wrongGuess(peer) { return Self.overRate(wait) }
      return .refuse(.notFound, "There is no session \(code) on this server.")
    }
    if let wait = codeGuesses.overRate(peer) { return Self.overRate(wait) }
    guard Self.asksForPresenter(head) else { return .pass }
    let scope = Scope.session(session)
    switch await judge(offer(of: head, for: scope), for: scope, from: peer, forgets: false) {
    case .admitted: return .pass
    case .refused:
      return .refuse(
        .unauthorized, "A presenter's socket for session \(session.code) needs its token.")
    case .overRate(let wait): return Self.overRate(wait)
    }
  }

  static func overRate(_ wait: Duration) -> UpgradeVerdict {
    .refuse(.tooManyRequests, Self.overRateReason, retryAfter: wait)
  }

  /// What a guess over the rate is told, on every route.
  static let overRateReason = "Too many wrong guesses from this address: try again later."

  /// The same refusal for a route.
  static func overRateError(_ wait: Duration) -> HTTPError {
    HTTPError(
      .tooManyRequests, headers: [.retryAfter: RequestGate.seconds(wait)],
      message: overRateReason)
  }
}

/// In front of presenter routes: the default room's (with an admin token set) or a
/// session's, under `/s/CODE/` (404 for a code no session has). A request without the
/// scope's credentials gets 401, or, from a browser asking for a page, the login form.
struct PresenterGate: RouterMiddleware {
  typealias Context = ServerRequestContext
  let auth: PresenterAuth
  let addresses: ClientAddress
  /// `nil`: the default room; else the session the route's `{code}` names.
  let sessions: SessionLookup?
  /// Whose page a request for a session's own address gets without any presenter
  /// credential: the attendees'.
  var attendees: AttendeeController?

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let address = addresses.of(request, peer: context.remoteAddress)
    var context = context
    let scope: PresenterAuth.Scope
    if let sessions {
      let found = try await sessions.found(context, from: address)
      context.session = found
      scope = .session(found.0)
    } else {
      scope = .admin
    }
    switch await auth.judge(auth.offer(of: request, for: scope), for: scope, from: address) {
    case .admitted:
      return try await next(request, context)
    case .overRate(let wait):
      throw PresenterAuth.overRateError(wait)
    case .refused:
      if let attendees, let (session, room) = context.session, request.method == .get,
        auth.offer(of: request, for: scope) == .none,
        request.uri.path.uppercased() == LoginController.base(of: scope).uppercased()
      {
        return try await attendees.page(request, context, room: room, session: session)
      }
      if case .token = auth.offer(of: request, for: scope) {
        return PresenterAuth.unauthorized
      }
      if request.method == .get,
        request.headers[.accept]?.contains("text/html") == true
      {
        return Response.redirect(to: LoginController.base(of: scope) + "login", type: .normal)
      }
      return PresenterAuth.unauthorized
    }
  }
}
