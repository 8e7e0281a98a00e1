import Foundation
import HTTPTypes
import Hummingbird
import QnA
import QnARoom
import QnAStore

/// The presenters' actions on the room through the API, as the console's (extension
/// `announcements`): the room's banner.
struct RoomActionController: Sendable {
  let scope: PresenterScope

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/api/announcement") { _, context -> AnnouncementJSON in
      AnnouncementJSON(try await scope.room(context).store.announcement())
    }
    // `{"text": …}`: shown to the whole room until replaced or cleared. An
    // `Idempotency-Key` header (a UUID) makes a retried request act once.
    router.put("/api/announcement") { request, context -> AnnouncementJSON in
      let room = try scope.room(context)
      let text = try await Self.announcementText(request)
      return try await Self.announce(text, request: request, room: room)
    }
    router.delete("/api/announcement") { request, context -> AnnouncementJSON in
      try await Self.announce(nil, request: request, room: try scope.room(context))
    }
    // Extension `queue`: the next questions in order, and whether the room sees them.
    router.get("/api/queue") { _, context -> QueueJSON in
      QueueJSON(try await scope.room(context).store.nextUp())
    }
    for (path, kind) in [
      ("next", PresenterActionKind.next), ("show", .showQueue), ("hide", .hideQueue),
    ] {
      router.post("/api/queue/\(path)") { request, context -> QueueJSON in
        let room = try scope.room(context)
        let token = try IdempotencyKey.token(request, in: room)
        let outcome = try await PresenterActions(room: room).queue(kind, token: token)
        if let refusal = outcome.refusal { throw HTTPError(.conflict, message: refusal) }
        return QueueJSON(try await room.store.nextUp())
      }
    }
  }

  private static func announce(_ text: String?, request: Request, room: SessionRoom)
    async throws -> AnnouncementJSON
  {
    let token = try IdempotencyKey.token(request, in: room)
    let outcome = try await PresenterActions(room: room).announce(text, token: token)
    if let refusal = outcome.refusal { throw HTTPError(.conflict, message: refusal) }
    return AnnouncementJSON(try await room.store.announcement())
  }

  /// The body of `PUT /api/announcement`: `{"text": string}`, no other key, trimmed.
  private static func announcementText(_ request: Request) async throws -> String {
    // Room to tell a text too long in words, not with a 413.
    let bytes = try await request.body.collect(upTo: 64 * 1024)
    let data = Data(bytes.readableBytesView)
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      object.count == 1, let raw = object["text"] as? String
    else {
      throw HTTPError(.badRequest, message: "the body must be {\"text\": string}, no other keys")
    }
    let text = raw.trimmingCharacters(in: .whitespaces)
    if let problem = PresenterActions.announcementProblem(text) {
      throw HTTPError(.badRequest, message: problem)
    }
    return text
  }
}

/// The room's banner as the API shows it: `{}` when there is none.
struct AnnouncementJSON: ResponseEncodable, Sendable {
  var text: String?
  var at: String?

  init(_ announcement: Announcement?) {
    text = announcement?.text
    at = announcement?.at?.formatted(TimestampFormat.iso8601)
  }
}

/// The next questions as the API shows them: `{"ids": [...], "shown": bool}`.
struct QueueJSON: ResponseEncodable, Sendable {
  var ids: [UUID]
  var shown: Bool

  init(_ nextUp: NextUp) {
    ids = nextUp.ids
    shown = nextUp.shown
  }
}
