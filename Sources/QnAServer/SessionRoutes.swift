import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1

/// Who may act as a session's presenter: its own presenter token, or the admin token, as a
/// bearer token; or a login for that session (its cookie, `qna_session_CODE`, scoped to its
/// path) or an admin login. Judged without side effects: wrong guesses are throttled by the
/// route that answers them.
struct SessionCredentials: Sendable {
  let adminToken: String?
  let logins: PresenterSessions

  static func cookieName(for code: String) -> String { "qna_session_\(code)" }

  func admits(_ request: Request, to session: SessionRecord) -> Bool {
    admits(
      authorization: request.headers[values: .authorization],
      cookies: request.headers[values: .cookie], to: session)
  }

  /// The same, from a request's `Authorization` and `Cookie` lines.
  func admits(authorization: [String], cookies lines: [String], to session: SessionRecord) -> Bool {
    if !authorization.isEmpty {
      guard authorization.count == 1, authorization[0].hasPrefix("Bearer ") else { return false }
      return admits(token: String(authorization[0].dropFirst(7)), to: session)
    }
    for name in [AdminAuth<ServerRequestContext>.cookieName, Self.cookieName(for: session.code)] {
      let values = AdminAuth<ServerRequestContext>.sessionCookies(in: lines, named: name)
      if values.count == 1, logins.isValid(String(values[0]), for: session.id) { return true }
    }
    return false
  }

  /// Whether `offered` is the admin token (whose success forgets an address's wrong guesses;
  /// a session's token does not: its holder could otherwise guess others' unthrottled).
  func isAdmin(_ offered: String) -> Bool {
    adminToken.map { ConstantTime.equal(offered, $0) } ?? false
  }

  func admits(token offered: String, to session: SessionRecord) -> Bool {
    // Both compared, whatever the first gives: no timing says which one matched.
    let own = ConstantTime.equal(offered, session.token)
    let admin = adminToken.map { ConstantTime.equal(offered, $0) } ?? false
    return own || admin
  }
}

/// The request gate's judge of upgrades to `/s/CODE/socket`: 404 for a code no session has,
/// and 401 for a presenter's socket without that session's credentials (wrong tokens
/// answered at their turn, as at the login form). Attendees of a closed session get in: it
/// stays readable.
struct SessionSocketJudge: Sendable {
  let desks: SessionDesks
  let credentials: SessionCredentials
  let throttle: LoginThrottle

  enum Verdict: Sendable {
    case pass
    case refuse(HTTPResponseStatus, String, wait: Duration)
  }

  func judge(_ head: HTTPRequestHead, peer: String) async -> Verdict {
    let code = PresenterSocketAuth.sessionCode(ofTarget: head.uri).map(String.init) ?? ""
    let found: (session: SessionRecord, desk: QuestionDesk)?
    do {
      found = try await desks.resolve(code)
    } catch {
      return .refuse(.serviceUnavailable, "The sessions cannot be read now.", wait: .zero)
    }
    guard let session = found?.session else {
      // Answered at its turn, as a wrong token is: codes are not for guessing.
      return .refuse(
        .notFound, "There is no session \(code) on this server.", wait: throttle.failed(peer))
    }
    let authorization = head.headers["Authorization"]
    guard
      PresenterSocketAuth.asksForPresenter(
        target: head.uri, hasAuthorization: !authorization.isEmpty)
    else { return .pass }
    if credentials.admits(
      authorization: authorization, cookies: head.headers["Cookie"], to: session)
    {
      return .pass
    }
    return .refuse(
      .unauthorized, "A presenter's socket for session \(session.code) needs its token.",
      wait: authorization.isEmpty ? .zero : throttle.failed(peer))
  }
}

/// In front of a session's presenter routes: 404 for a code no session has, then the
/// session's credentials; browsers asking for a page without them go to its login form.
struct SessionGate: RouterMiddleware {
  typealias Context = ServerRequestContext
  let desks: SessionDesks
  let credentials: SessionCredentials
  let throttle: LoginThrottle
  let addresses: ClientAddress

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let address = addresses.of(request, peer: context.remoteAddress)
    let found: (SessionRecord, QuestionDesk)
    do {
      found = try await QnAServerApp.session(context, desks: desks)
    } catch {
      _ = await throttle.judge(address, correct: false)
      throw error
    }
    let (session, desk) = found
    guard credentials.admits(request, to: session) else {
      if request.headers[.authorization] != nil {
        _ = await throttle.judge(address, correct: false)
      } else if request.method == .get, request.headers[.accept]?.contains("text/html") == true {
        return Response.redirect(to: "/s/\(session.code)/login", type: .normal)
      }
      return AdminAuth<Context>.unauthorized
    }
    if case .bearer(let token) = AdminAuth<Context>.credentials(of: request),
      credentials.isAdmin(token)
    {
      _ = await throttle.judge(address, correct: true)
    }
    var context = context
    context.session = (session, desk)
    return try await next(request, context)
  }
}

extension QnAServerApp {
  func sessionCredentials() -> SessionCredentials {
    SessionCredentials(adminToken: configuration.adminToken, logins: sessions)
  }

  /// The session the route's `{code}` names; 404 when there is none.
  static func session(_ context: ServerRequestContext, desks: SessionDesks) async throws -> (
    SessionRecord, QuestionDesk
  ) {
    let code = context.parameters.get("code") ?? ""
    guard let found = try await desks.resolve(code) else {
      throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)) on this server.")
    }
    return found
  }

  /// A session's own routes, under `/s/CODE/`: its socket's refusals, its login form, and
  /// the presenter's page and API as the default session has them.
  func addSessionRoutes(to router: Router<ServerRequestContext>) {
    let desks = self.desks
    let credentials = sessionCredentials()
    let throttle = self.throttle
    let addresses = self.addresses
    let logins = self.sessions
    let open = router.group("/s/{code}")
    // Reached only when the socket's route did not upgrade: it says why.
    open.get("/socket") { request, context -> Response in
      let (session, _) = try await Self.session(context, desks: desks)
      let asks = PresenterSocketAuth.asksForPresenter(
        target: request.uri.string, hasAuthorization: request.headers[.authorization] != nil)
      if asks, !credentials.admits(request, to: session) {
        if request.headers[.authorization] != nil {
          _ = await throttle.judge(
            addresses.of(request, peer: context.remoteAddress), correct: false)
        }
        return AdminAuth<ServerRequestContext>.unauthorized
      }
      throw HTTPError(.upgradeRequired, message: "This is a WebSocket endpoint.")
    }
    open.get("/login") { _, context -> Response in
      let (session, _) = try await Self.session(context, desks: desks)
      return Self.html(PresenterPage.login(failed: false, base: "/s/\(session.code)/"))
    }
    open.post("/login") { request, context -> Response in
      let (session, _) = try await Self.session(context, desks: desks)
      let base = "/s/\(session.code)/"
      let body = try await request.body.collect(upTo: 4096)
      let form = try? URLEncodedFormDecoder().decode(LoginForm.self, from: String(buffer: body))
      let address = addresses.of(request, peer: context.remoteAddress)
      let correct = form.map { credentials.admits(token: $0.token, to: session) } ?? false
      let admin = form.map { credentials.isAdmin($0.token) } ?? false
      // A session's own token lets its presenter in without forgetting the address's guesses.
      let admitted = correct && !admin ? true : await throttle.judge(address, correct: correct)
      guard admitted else {
        var refused = Self.html(PresenterPage.login(failed: true, base: base))
        refused.status = .unauthorized
        return refused
      }
      var response = Response.redirect(to: base, type: .normal)
      response.setCookie(
        Cookie(
          name: SessionCredentials.cookieName(for: session.code),
          value: logins.create(scope: session.id),
          maxAge: Int(logins.lifetime / .seconds(1)), path: base,
          secure: addresses.isSecure(request, peer: context.remoteAddress), httpOnly: true,
          sameSite: .strict))
      return response
    }
    open.post("/logout") { request, context -> Response in
      let (session, _) = try await Self.session(context, desks: desks)
      let name = SessionCredentials.cookieName(for: session.code)
      if case .session(let id) = AdminAuth<ServerRequestContext>.credentials(
        of: request, cookie: name)
      {
        logins.end(id)
      }
      var response = Response.redirect(to: "/s/\(session.code)/login", type: .normal)
      response.setCookie(
        Cookie(
          name: name, value: "", maxAge: 0, path: "/s/\(session.code)/",
          secure: addresses.isSecure(request, peer: context.remoteAddress), httpOnly: true,
          sameSite: .strict))
      return response
    }
    let guarded = router.group("/s/{code}").add(
      middleware: SessionGate(
        desks: desks, credentials: credentials, throttle: throttle, addresses: addresses))
    Self.addPresenterRoutes(
      to: guarded, base: { context in "/s/\(context.session?.record.code ?? "")/" },
      desk: { context in
        guard let desk = context.session?.desk else {
          throw HTTPError(.notFound, message: "no such session")
        }
        return desk
      }, title: { context in context.session?.record.title })
  }

  /// Sessions, for the admin (the default session's presenter): create, list, close, reopen
  /// and delete them.
  func addSessionAdminRoutes(to router: some RouterMethods<ServerRequestContext>) {
    let desks = self.desks
    let store = desk.store
    let now = desk.environment.now
    router.post("/api/sessions") { request, _ -> EditedResponse<SessionJSON> in
      let bytes = try await request.body.collect(upTo: 16 * 1024)
      guard
        let body = try? JSONDecoder().decode(
          NewSessionBody.self, from: Data(bytes.readableBytesView))
      else {
        throw HTTPError(.badRequest, message: "the body must be {\"title\": …}")
      }
      guard let title = QuestionStore.validTitle(body.title) else {
        throw HTTPError(.badRequest, message: QuestionStore.titleRule)
      }
      var random = SystemRandomNumberGenerator()
      let session = try await store.createSession(title: title, at: now(), using: &random)
      return EditedResponse(
        status: .created, response: SessionJSON(session, questions: 0, withToken: true))
    }
    router.get("/api/sessions") { _, _ -> [SessionJSON] in
      try await store.sessions().map { SessionJSON($0.session, questions: $0.questions) }
    }
    for (action, open) in [("close", false), ("open", true)] {
      router.post("/api/sessions/{code}/\(action)") { _, context -> SessionJSON in
        let code = context.parameters.get("code") ?? ""
        guard let session = try await store.setSession(code: code, open: open) else {
          throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)).")
        }
        return SessionJSON(session, questions: try await store.session(session.id ?? 0).count())
      }
    }
    router.delete("/api/sessions/{code}") { _, context -> Response in
      let code = context.parameters.get("code") ?? ""
      guard let session = try await store.deleteSession(code: code) else {
        throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)).")
      }
      desks.retire(code: session.code)
      return Response(status: .noContent)
    }
  }
}

struct NewSessionBody: Decodable {
  var title: String
}

/// A session as the API shows it; the presenter token only in the reply to its creation.
struct SessionJSON: ResponseEncodable, Sendable {
  var code: String
  var title: String
  var open: Bool
  var createdAt: String
  var questions: Int
  /// Where attendees and the presenter go, relative to the server.
  var socket: String
  var page: String
  var token: String?

  init(_ session: SessionRecord, questions: Int, withToken: Bool = false) {
    code = session.code
    title = session.title
    open = session.open
    createdAt = Date(timeIntervalSinceReferenceDate: session.createdAt).formatted(
      QuestionJSON.timestamp)
    self.questions = questions
    socket = "/s/\(session.code)/socket"
    page = "/s/\(session.code)/"
    token = withToken ? session.token : nil
  }
}
