import Foundation
import HTTPTypes
import Hummingbird
import QnARoom
import QnAStore

/// A session's word filter through the API: its lists, one entry per line, and what a
/// match does (docs/server.md, Word filters).
struct FilterController: Sendable {
  let scope: PresenterScope

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/api/filters") { _, context -> FiltersJSON in
      let room = try scope.room(context)
      return FiltersJSON(
        try await room.store.moderation.filterSettings(), server: room.settings.wordLists)
    }
    // `{"mode": "review"|"refuse"}`.
    router.put("/api/filters") { request, context -> FiltersJSON in
      let room = try scope.room(context)
      let body = try await request.body.collect(upTo: 1024)
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
          as? [String: Any], object.count == 1,
        let mode = (object["mode"] as? String).flatMap(FilterMode.init(rawValue:))
      else {
        throw HTTPError(.badRequest, message: "the body must be {\"mode\": \"review\"|\"refuse\"}")
      }
      try Self.check(
        try await FilterActions(room: room).setMode(
          mode, token: try IdempotencyKey.token(request, in: room)))
      return FiltersJSON(
        try await room.store.moderation.filterSettings(), server: room.settings.wordLists)
    }
    // The list as a file: one entry per line.
    router.get("/api/filters/{name}") { _, context -> Response in
      let room = try scope.room(context)
      let name = try Self.listName(context)
      let lists = try await room.store.moderation.filterSettings().lists
      guard let entries = lists[name] ?? room.settings.wordLists[name] else {
        throw HTTPError(.notFound, message: "no word list \(name)")
      }
      return Response(
        status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: entries.map { $0 + "\n" }.joined())))
    }
    // The whole list, replaced: one entry per line, as a file.
    router.put("/api/filters/{name}") { request, context -> FilterListJSON in
      let room = try scope.room(context)
      let name = try Self.listName(context)
      let body = try await request.body.collect(upTo: WordListText.maxBytes)
      let entries: [String]
      switch WordListText.parse(Substring(String(buffer: body))) {
      case .success(let parsed): entries = parsed
      case .failure(let problem): throw HTTPError(.badRequest, message: problem.description)
      }
      try Self.check(
        try await FilterActions(room: room).replace(
          name, entries: entries, token: try IdempotencyKey.token(request, in: room)))
      // The list is these entries, each once: no need to read every list back.
      return FilterListJSON(name: name, entries: Set(entries).count)
    }
    // `{"add": [...], "remove": [...]}`: a few entries in or out.
    router.post("/api/filters/{name}") { request, context -> FilterListJSON in
      let room = try scope.room(context)
      let name = try Self.listName(context)
      let body = try await request.body.collect(upTo: 256 * 1024)
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
          as? [String: Any],
        Set(object.keys).isSubset(of: ["add", "remove"]),
        let add = (object["add"] ?? [String]()) as? [String],
        let remove = (object["remove"] ?? [String]()) as? [String],
        add.count + remove.count <= 1000
      else {
        throw HTTPError(
          .badRequest,
          message: "the body must be {\"add\": [string], \"remove\": [string]}, 1,000 at most")
      }
      let trimmed = { (entries: [String]) in
        entries.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      }
      if let problem = FilterActions.problem(name: name, entries: trimmed(add)) {
        throw HTTPError(.badRequest, message: problem)
      }
      try Self.check(
        try await FilterActions(room: room).change(
          name, FilterChange(adding: trimmed(add), removing: trimmed(remove)),
          token: try IdempotencyKey.token(request, in: room)))
      return FilterListJSON(
        name: name,
        entries: try await room.store.moderation.filterSettings().lists[name]?.count ?? 0)
    }
    router.delete("/api/filters/{name}") { request, context -> FilterListJSON in
      let room = try scope.room(context)
      let name = try Self.listName(context)
      try Self.check(
        try await FilterActions(room: room).replace(
          name, entries: [], token: try IdempotencyKey.token(request, in: room)))
      return FilterListJSON(name: name, entries: 0)
    }
  }

  /// The route's list name; 400 for one that is not a name.
  private static func listName(_ context: ServerRequestContext) throws -> String {
    guard let name = context.parameters.get("name"), ModerationStore.validListName(name) else {
      throw HTTPError(.badRequest, message: "a list's name is 1–32 of a–z, 0–9, - and _")
    }
    return name
  }

  /// 409 with the store's reason for a refused change.
  private static func check(_ outcome: QuestionStore.RoomActionOutcome) throws {
    if let refusal = outcome.refusal { throw HTTPError(.conflict, message: refusal) }
  }
}

/// A session's filter as the API shows it: what a match does, and each list with its size
/// (`server`: from `--word-list`, the same for every session, not editable here).
struct FiltersJSON: ResponseEncodable, Sendable {
  struct List: Encodable, Sendable {
    var name: String
    var entries: Int
    var server: Bool
  }
  var mode: String
  var lists: [List]

  init(_ settings: FilterSettings, server: [String: [String]]) {
    mode = settings.mode.rawValue
    lists =
      server.map { List(name: $0.key, entries: $0.value.count, server: true) }
      .sorted { $0.name < $1.name }
      + settings.lists.map { List(name: $0.key, entries: $0.value.count, server: false) }
      .sorted { $0.name < $1.name }
  }
}

struct FilterListJSON: ResponseEncodable, Sendable {
  var name: String
  var entries: Int
}
