import Hummingbird
import QnAPages
import QnARoom
import QnAStore

/// The login form and logout, once for the default room (`/login`, with an admin token set)
/// and for each session (`/s/CODE/login`): a right token sets a login cookie scoped to the
/// room's path, never the token itself.
struct LoginController: Sendable {
  let auth: PresenterAuth
  let addresses: ClientAddress
  /// `nil`: the default room's login; else the session's the route's `{code}` names.
  let sessions: SessionLookup?

  /// Where a scope's pages are: `/` or `/s/CODE/`.
  static func base(of scope: PresenterAuth.Scope) -> String {
    switch scope {
    case .admin: "/"
    case .session(let session): "/s/\(session.code)/"
    }
  }

  static func cookieName(of scope: PresenterAuth.Scope) -> String {
    switch scope {
    case .admin: PresenterAuth.adminCookie
    case .session(let session): PresenterAuth.sessionCookie(for: session.code)
    }
  }

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/login", use: form)
    router.post("/login", use: logIn)
    router.post("/logout", use: logOut)
  }

  private func scope(_ request: Request, _ context: ServerRequestContext) async throws
    -> PresenterAuth.Scope
  {
    guard let sessions else { return .admin }
    return .session(try await sessions.found(request, context).0)
  }

  @Sendable private func form(_ request: Request, context: ServerRequestContext) async throws
    -> Response
  {
    let base = Self.base(of: try await scope(request, context))
    return HTMLPage.response(
      PresenterPage.login(failed: false, base: base, words: HTMLPage.words(for: request)))
  }

  @Sendable private func logIn(_ request: Request, context: ServerRequestContext) async throws
    -> Response
  {
    let scope = try await scope(request, context)
    let base = Self.base(of: scope)
    let body = try await request.body.collect(upTo: 4096)
    let form = try? URLEncodedFormDecoder().decode(LoginForm.self, from: String(buffer: body))
    let address = addresses.of(request, peer: context.remoteAddress)
    // Judged as a bearer token would be, under the same guessing rate.
    let decision = await auth.judge(.token(form?.token ?? ""), for: scope, from: address)
    if case .overRate(let wait) = decision { throw PresenterAuth.overRateError(wait) }
    guard decision == .admitted, form != nil else {
      var refused = HTMLPage.response(
        PresenterPage.login(failed: true, base: base, words: HTMLPage.words(for: request)))
      refused.status = .unauthorized
      return refused
    }
    let login: String
    do {
      // Tied to the token just judged right: it ends when that token no longer admits.
      login = try await auth.logins.create(scope: scope.loginScope, token: form?.token ?? "")
    } catch {
      throw HTTPError(.serviceUnavailable, message: "Logins cannot be stored now: try again.")
    }
    var response = Response.redirect(to: base, type: .normal)
    response.setCookie(
      Cookie(
        name: Self.cookieName(of: scope), value: login,
        maxAge: Int(auth.logins.lifetime / .seconds(1)), path: base,
        secure: addresses.isSecure(request, peer: context.remoteAddress), httpOnly: true,
        sameSite: .strict))
    return response
  }

  @Sendable private func logOut(_ request: Request, context: ServerRequestContext) async throws
    -> Response
  {
    let scope = try await scope(request, context)
    let name = Self.cookieName(of: scope)
    if case .logins(let ids) = PresenterAuth.offer(
      authorization: request.headers[values: .authorization],
      cookies: request.headers[values: .cookie], names: [name])
    {
      for id in ids { await auth.logins.end(id) }
    }
    let base = Self.base(of: scope)
    var response = Response.redirect(to: base + "login", type: .normal)
    response.setCookie(
      Cookie(
        name: name, value: "", maxAge: 0, path: base,
        secure: addresses.isSecure(request, peer: context.remoteAddress), httpOnly: true,
        sameSite: .strict))
    return response
  }
}

struct LoginForm: Decodable {
  var token: String
}
