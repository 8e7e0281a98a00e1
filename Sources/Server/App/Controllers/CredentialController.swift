import Foundation
import Hummingbird
import Logging
import QnARoom
import QnAStore

/// Ending presenters' credentials, for the admin: a session's new presenter token, which
/// ends the old one and the session's logins, and a logout of every presenter everywhere.
/// Each is a line in the log naming what was done, never a token.
struct CredentialController: Sendable {
  let rooms: SessionRooms
  let logger: Logger

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    let store = rooms.main.store
    let now = rooms.main.environment.now
    router.post("/api/sessions/{code}/token") { _, context -> SessionJSON in
      let code = context.parameters.get("code") ?? ""
      var random = SystemRandomNumberGenerator()
      guard
        let rotated = try await store.directory.rotateToken(code: code, at: now(), using: &random)
      else {
        throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)).")
      }
      let session = rotated.session
      logger.notice(
        "session \(session.code): new presenter token (API); \(rotated.endedLogins) logins ended")
      // Its presenters' sockets here close now; other instances' at the database's notice.
      if let id = session.id { self.rooms.refresh(id) }
      return SessionJSON(
        session, questions: try await store.session(session.id ?? 0).count(), withToken: true)
    }
    router.delete("/api/logins") { _, _ -> EndedLogins in
      let ended = try await store.directory.endLogins(scope: nil, now: now())
      logger.notice("every presenter login ended through the API: \(ended) of them")
      return EndedLogins(ended: ended)
    }
  }
}

/// How many live logins a logout of everyone ended.
struct EndedLogins: ResponseEncodable, Sendable {
  var ended: Int
}
