import Foundation
import HTTPTypes
import Hummingbird
import QnA
import QnARoom
import QnAStore

/// The session's polls through the API (extension `polls`), as a presenter's socket has
/// them: each action exactly once per `Idempotency-Key`, the polls and their live results
/// read back, and the polls exported and imported as JSON (their specs).
struct PollController: Sendable {
  let scope: PresenterScope

  /// The largest body: an import of every poll a session may have, each at its largest.
  static let maxBody = 1024 * 1024

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    // Every poll, with its results as presenters see them.
    router.get("/api/polls") { _, context -> PollsJSON in
      PollsJSON(polls: try await scope.room(context).store.polls())
    }
    // A new poll: its spec (`PollSpec`), and optionally `id`; a draft until opened.
    router.post("/api/polls") { request, context -> RoomPoll in
      let room = try scope.room(context)
      let (id, spec) = try await Self.spec(request)
      let key = try IdempotencyKey.uuid(request)
      let poll = id ?? key ?? room.environment.makeID()
      try await Self.act(.create, on: poll, spec: spec, request: request, room: room)
      return try await Self.read(poll, room: room)
    }
    // The results for after the talk: `?format=csv|json|markdown` (CSV by default), per poll
    // and option; `?part=scores` (CSV): the quizzes' per-attendee scores.
    router.get("/api/polls/results") { request, context -> Response in
      let room = try scope.room(context)
      let raw = request.uri.queryParameters["format"].map(String.init) ?? "csv"
      guard let format = ExportFormat(rawValue: raw) else {
        throw HTTPError(.badRequest, message: "format must be csv, json or markdown")
      }
      let scoresOnly = request.uri.queryParameters["part"] == "scores"
      let bytes = PollExport.render(
        try await room.store.polls(), scores: try await room.store.quizScores(),
        entries: try await room.store.textEntries(), as: format,
        scoresOnly: scoresOnly)
      return Response(
        status: .ok,
        headers: [
          .contentType: format.contentType,
          .contentDisposition:
            "attachment; filename=\"polls\(scoresOnly ? "-scores" : "").\(format.fileExtension)\"",
        ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
    // The specs, as an import takes them back.
    router.get("/api/polls/export") { _, context -> [PollSpec] in
      try await scope.room(context).store.polls().compactMap(\.spec)
    }
    // `[spec, …]`: each a new draft, in order (all of them checked before any is made).
    router.post("/api/polls/import") { request, context -> PollsJSON in
      let room = try scope.room(context)
      let bytes = try await request.body.collect(upTo: Self.maxBody)
      guard
        let specs = try? JSONDecoder().decode([PollSpec].self, from: Data(bytes.readableBytesView))
      else { throw HTTPError(.badRequest, message: "the body must be a JSON array of polls") }
      for (index, spec) in specs.enumerated() {
        if let problem = PollRules.problem(with: spec) {
          throw HTTPError(.badRequest, message: "poll \(index + 1): \(problem)")
        }
      }
      // The session's cap, checked before any is made (a retried import's polls are there
      // already, and make nothing twice).
      let key = try IdempotencyKey.uuid(request)
      let existing = try await room.store.polls()
      let new = specs.indices.filter { index in
        key.map { key in !existing.contains { $0.id == Self.derived(key, index) } } ?? true
      }
      guard existing.count + new.count <= PollRules.maxPolls else {
        throw HTTPError(
          .conflict,
          message: "A session has at most \(PollRules.maxPolls) polls: \(existing.count) are there."
        )
      }
      // A retried import (same key) makes the same polls: their ids come from the key.
      for (index, spec) in specs.enumerated() {
        let id = key.map { Self.derived($0, index) } ?? room.environment.makeID()
        try await Self.act(.create, on: id, spec: spec, token: id, room: room)
      }
      return PollsJSON(polls: try await room.store.polls())
    }
    // A draft's new spec.
    router.put("/api/polls/:id") { request, context -> RoomPoll in
      let room = try scope.room(context)
      let poll = try Self.id(context)
      let (_, spec) = try await Self.spec(request)
      try await Self.act(.update, on: poll, spec: spec, request: request, room: room)
      return try await Self.read(poll, room: room)
    }
    router.delete("/api/polls/:id") { request, context -> PollsJSON in
      let room = try scope.room(context)
      try await Self.act(.delete, on: try Self.id(context), request: request, room: room)
      return PollsJSON(polls: try await room.store.polls())
    }
    for action in [PollActionKind.open, .close, .show, .hide, .reset] {
      router.post("/api/polls/:id/\(action.rawValue)") { request, context -> RoomPoll in
        let room = try scope.room(context)
        let poll = try Self.id(context)
        try await Self.act(action, on: poll, request: request, room: room)
        return try await Self.read(poll, room: room)
      }
    }
    // An open text's entry, `{"text":"…"}` as results name it, let through or kept out.
    for action in [PollActionKind.approve, .dismiss] {
      router.post("/api/polls/:id/\(action.rawValue)") { request, context -> RoomPoll in
        let room = try scope.room(context)
        let poll = try Self.id(context)
        let bytes = try await request.body.collect(upTo: 4 * PollRules.maxTextAnswerBytes)
        guard
          let entry = try? JSONDecoder().decode(
            EntryJSON.self, from: Data(bytes.readableBytesView))
        else { throw HTTPError(.badRequest, message: "the body is {\"text\": \"…\"}") }
        try await Self.act(
          action, on: poll, text: entry.text, token: try IdempotencyKey.token(request, in: room),
          room: room)
        return try await Self.read(poll, room: room)
      }
    }
  }

  /// An open text's entry, as the moderation routes take it.
  private struct EntryJSON: Decodable {
    var text: String
  }

  private static func act(
    _ kind: PollActionKind, on poll: UUID, spec: PollSpec? = nil, request: Request,
    room: SessionRoom
  ) async throws {
    try await act(
      kind, on: poll, spec: spec, token: try IdempotencyKey.token(request, in: room), room: room)
  }

  private static func act(
    _ kind: PollActionKind, on poll: UUID, spec: PollSpec? = nil, text: String? = nil,
    token: UUID, room: SessionRoom
  ) async throws {
    do throws(PollActionError) {
      try await PollIntake(room: room).perform(
        kind, on: poll, spec: spec, text: text, token: token)
    } catch {
      if error.retryAfter != nil { throw HTTPError(.serviceUnavailable, message: error.message) }
      let missing = [RoomActionFlow.noSuchPoll, RoomActionFlow.noSuchEntry]
      let status: HTTPResponse.Status = missing.contains(error.message) ? .notFound : .conflict
      throw HTTPError(status, message: error.message)
    }
  }

  private static func read(_ poll: UUID, room: SessionRoom) async throws -> RoomPoll {
    guard let found = try await room.store.polls().first(where: { $0.id == poll }) else {
      throw HTTPError(.notFound, message: RoomActionFlow.noSuchPoll)
    }
    return found
  }

  private static func id(_ context: ServerRequestContext) throws -> UUID {
    guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw) else {
      throw HTTPError(.badRequest, message: "a poll's id is a UUID")
    }
    return id
  }

  /// A body of a spec, with an optional `id`; checked (`PollRules.problem`).
  private static func spec(_ request: Request) async throws -> (UUID?, PollSpec) {
    let bytes = try await request.body.collect(upTo: 64 * 1024)
    let data = Data(bytes.readableBytesView)
    guard let spec = try? JSONDecoder().decode(PollSpec.self, from: data) else {
      throw HTTPError(
        .badRequest, message: "the body must be a poll: {\"kind\": …, \"prompt\": …, …}")
    }
    if let problem = PollRules.problem(with: spec) {
      throw HTTPError(.badRequest, message: problem)
    }
    let id = try? JSONDecoder().decode(PollID.self, from: data).id
    return (id ?? nil, spec)
  }

  /// The `index`-th id of an import under `key`: the same key gives the same ids.
  static func derived(_ key: UUID, _ index: Int) -> UUID {
    var bytes = key.uuid
    bytes.14 ^= UInt8(truncatingIfNeeded: index >> 8)
    bytes.15 ^= UInt8(truncatingIfNeeded: index)
    return UUID(uuid: bytes)
  }

  private struct PollID: Decodable {
    var id: UUID?
  }
}

/// The session's polls as the API shows them: `{"polls": [...]}`, in order.
struct PollsJSON: ResponseEncodable, Sendable {
  var polls: [RoomPoll]
}

extension RoomPoll: ResponseEncodable {}
extension PollSpec: ResponseEncodable {}
