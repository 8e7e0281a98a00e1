import Foundation
import Hummingbird
import QnARoom
import QnAStore

extension QnAServerApp {
  /// The session the route's `{code}` names; 404 when there is none. Codes are not for
  /// guessing, by any route: past the address's rate (`guesses`), 429 for a right code and a
  /// wrong one alike, asked once the code is looked up.
  static func session(
    _ context: ServerRequestContext, rooms: SessionRooms, guesses: GuessThrottle,
    from address: String
  ) async throws -> (SessionRecord, SessionRoom) {
    let code = context.parameters.get("code") ?? ""
    guard let found = try await rooms.resolve(code) else {
      if let wait = await guesses.wrongGuess(address) { throw PresenterAuth.overRateError(wait) }
      throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)) on this server.")
    }
    if let wait = guesses.overRate(address) { throw PresenterAuth.overRateError(wait) }
    return found
  }

  /// A session's own routes, under `/s/CODE/`: its socket's refusals, its login form, the
  /// attendees' page (for those the presenter's gate does not admit), and the presenter's
  /// page and API as the default session has them.
  func addSessionRoutes(to router: Router<ServerRequestContext>, pages: AttendeePages) {
    let rooms = self.rooms
    let auth = self.auth
    let addresses = self.addresses
    let open = router.group("/s/{code}")
    // Reached only when the socket's route did not upgrade: it says why.
    open.get("/socket") { request, context -> Response in
      let address = addresses.of(request, peer: context.remoteAddress)
      let (session, _) = try await Self.session(
        context, rooms: rooms, guesses: auth.codeGuesses, from: address)
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
    LoginRoutes(auth: auth, addresses: addresses).add(to: open) { request, context in
      let address = addresses.of(request, peer: context.remoteAddress)
      return .session(
        try await Self.session(context, rooms: rooms, guesses: auth.codeGuesses, from: address).0)
    }
    let guarded = router.group("/s/{code}").add(
      middleware: PresenterGate(
        auth: auth, addresses: addresses, rooms: rooms,
        // The room's address is the attendees' page for anyone who offers no presenter
        // credential; a presenter's login cookie or token gets the presenter's page there.
        attendeePage: { request, context in
          guard let (session, room) = context.session else {
            throw HTTPError(.notFound, message: "no such session")
          }
          return try await pages.page(request, context, room: room, session: session)
        }))
    Self.addPresenterRoutes(
      to: guarded, base: { context in "/s/\(context.session?.record.code ?? "")/" },
      room: { context in
        guard let room = context.session?.room else {
          throw HTTPError(.notFound, message: "no such session")
        }
        return room
      }, title: { context in context.session?.record.title },
      join: { request, context in
        pages.joinAddress(request, context, code: context.session?.record.code)
      })
  }
}
