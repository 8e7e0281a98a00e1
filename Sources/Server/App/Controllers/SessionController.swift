import Foundation
import Hummingbird
import QnARoom
import QnAStore

/// A session's own routes, under `/s/CODE/`: its socket's refusals, its login form, the
/// attendees' page (for those the presenter's gate does not admit), and the presenter's page
/// and API as the default session has them.
struct SessionController: Sendable {
  let auth: PresenterAuth
  let sessions: SessionLookup
  let attendees: AttendeeController
  let join: JoinAddress

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    let open = router.group("/s/{code}")
    open.get("/socket", use: socketRefusal)
    LoginController(auth: auth, addresses: sessions.addresses, sessions: sessions)
      .addRoutes(to: open)
    let guarded = router.group("/s/{code}").add(
      middleware: PresenterGate(
        auth: auth, addresses: sessions.addresses, sessions: sessions,
        // The room's address is the attendees' page for anyone who offers no presenter
        // credential; a presenter's login cookie or token gets the presenter's page there.
        attendees: attendees))
    PresenterController(scope: .session, join: join).addRoutes(to: guarded)
  }

  /// Reached only when the socket's route did not upgrade: it says why.
  @Sendable private func socketRefusal(_ request: Request, context: ServerRequestContext)
    async throws -> Response
  {
    let address = sessions.addresses.of(request, peer: context.remoteAddress)
    let (session, _) = try await sessions.found(context, from: address)
    let scope = PresenterAuth.Scope.session(session)
    if PresenterAuth.asksForPresenter(request) {
      switch await auth.judge(auth.offer(of: request, for: scope), for: scope, from: address) {
      case .admitted: break
      case .refused: return PresenterAuth.unauthorized
      case .overRate(let wait): throw PresenterAuth.overRateError(wait)
      }
    }
    throw HTTPError(.upgradeRequired, message: "This is a WebSocket endpoint.")
  }
}
