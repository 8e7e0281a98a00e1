import Foundation
import Hummingbird
import QnARoom
import QnAStore

/// The session a route's `{code}` names; 404 when there is none. Codes are not for guessing,
/// by any route: past the address's rate (`guesses`), 429 for a right code and a wrong one
/// alike, asked once the code is looked up.
struct SessionLookup: Sendable {
  let rooms: SessionRooms
  let guesses: GuessThrottle
  let addresses: ClientAddress

  func found(_ request: Request, _ context: ServerRequestContext) async throws
    -> (SessionRecord, SessionRoom)
  {
    try await found(context, from: addresses.of(request, peer: context.remoteAddress))
  }

  func found(_ context: ServerRequestContext, from address: String) async throws
    -> (SessionRecord, SessionRoom)
  {
    let code = context.parameters.get("code") ?? ""
    guard let found = try await rooms.resolve(code) else {
      if let wait = await guesses.wrongGuess(address) { throw PresenterAuth.overRateError(wait) }
      throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)) on this server.")
    }
    if let wait = guesses.overRate(address) { throw PresenterAuth.overRateError(wait) }
    return found
  }
}
