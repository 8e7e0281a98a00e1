import Foundation
import HTTPTypes
import Hummingbird
import QnARoom
import QnAStore

/// Sessions, for the admin (the default session's presenter): create, list, close, reopen
/// and delete them, and give one a new presenter token (`CredentialController`, beside it).
struct SessionAdminController: Sendable {
  let rooms: SessionRooms

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    let rooms = self.rooms
    let store = rooms.main.store
    let now = rooms.main.environment.now
    router.post("/api/sessions") { request, _ -> EditedResponse<SessionJSON> in
      let bytes = try await request.body.collect(upTo: 16 * 1024)
      guard
        let body = try? JSONDecoder().decode(
          NewSessionBody.self, from: Data(bytes.readableBytesView))
      else {
        throw HTTPError(.badRequest, message: "the body must be {\"title\": …}")
      }
      guard let title = SessionDirectory.validTitle(body.title) else {
        throw HTTPError(.badRequest, message: SessionDirectory.titleRule)
      }
      // An `Idempotency-Key` (the IETF draft's header) makes a retried creation safe: the
      // same key finds the session its first try made, whatever became of that reply.
      var requestToken: String?
      if let key = request.headers[IdempotencyKey.header] {
        guard let valid = SessionDirectory.validRequestToken(key) else {
          throw HTTPError(
            .badRequest,
            message:
              "Idempotency-Key must be 1–\(SessionDirectory.maxRequestTokenLength) printable ASCII characters"
          )
        }
        requestToken = valid
      }
      var random = SystemRandomNumberGenerator()
      let (session, created) = try await store.directory.createSession(
        title: title, at: now(), requestToken: requestToken, using: &random)
      guard created || session.title == title else {
        throw HTTPError(
          .conflict, message: "This Idempotency-Key created a session with another title.")
      }
      let questions = created ? 0 : try await store.session(session.id ?? 0).count()
      return EditedResponse(
        status: created ? .created : .ok,
        response: SessionJSON(session, questions: questions, withToken: true))
    }
    router.get("/api/sessions") { _, _ -> [SessionJSON] in
      try await store.directory.sessions().map { SessionJSON($0.session, questions: $0.questions) }
    }
    for (action, open) in [("close", false), ("open", true)] {
      router.post("/api/sessions/{code}/\(action)") { _, context -> SessionJSON in
        let code = context.parameters.get("code") ?? ""
        guard let session = try await store.directory.setSession(code: code, open: open) else {
          throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)).")
        }
        // Its sockets here hear it now; other instances' from the database's notice.
        if let id = session.id { rooms.refresh(id) }
        return SessionJSON(session, questions: try await store.session(session.id ?? 0).count())
      }
    }
    router.delete("/api/sessions/{code}") { _, context -> Response in
      let code = context.parameters.get("code") ?? ""
      guard let session = try await store.directory.deleteSession(code: code) else {
        throw HTTPError(.notFound, message: "There is no session \(code.prefix(16)).")
      }
      rooms.retire(code: session.code)
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
      TimestampFormat.iso8601)
    self.questions = questions
    socket = "/s/\(session.code)/socket"
    page = "/s/\(session.code)/"
    token = withToken ? session.token : nil
  }
}
