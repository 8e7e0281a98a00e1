import Foundation
import HTTPTypes
import Hummingbird
import QnA
import QnARoom
import QnAStore

/// The session's labels through the API, as the console's (extension `labels`).
struct LabelController: Sendable {
  let scope: PresenterScope

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/api/labels") { _, context -> LabelsJSON in
      LabelsJSON(labels: try await scope.room(context).store.moderation.labels())
    }
    // `{"name": …}`: one more label. An `Idempotency-Key` header (a UUID) makes a retried
    // request act once.
    router.post("/api/labels") { request, context -> LabelsJSON in
      let room = try scope.room(context)
      let name = try await Self.labelName(request)
      return try await Self.change(.labelAdd, name, request: request, room: room)
    }
    // `?name=…`: one label fewer; the questions that carry it keep it.
    router.delete("/api/labels") { request, context -> LabelsJSON in
      let room = try scope.room(context)
      guard let raw = request.uri.queryParameters["name"] else {
        throw HTTPError(.badRequest, message: "name the label: ?name=…")
      }
      let name = String(raw).trimmingCharacters(in: .whitespaces)
      if let problem = PresenterActions.labelNameProblem(name) {
        throw HTTPError(.badRequest, message: problem)
      }
      return try await Self.change(.labelRemove, name, request: request, room: room)
    }
  }

  private static func change(
    _ kind: PresenterActionKind, _ name: String, request: Request, room: SessionRoom
  ) async throws -> LabelsJSON {
    let token = try IdempotencyKey.token(request, in: room)
    let outcome = try await PresenterActions(room: room).changeLabels(kind, name, token: token)
    if let refusal = outcome.refusal { throw HTTPError(.conflict, message: refusal) }
    return LabelsJSON(labels: try await room.store.moderation.labels())
  }

  /// The body of `POST /api/labels`: `{"name": string}`, no other key, trimmed.
  private static func labelName(_ request: Request) async throws -> String {
    // Room to tell a name too long in words, not with a 413.
    let bytes = try await request.body.collect(upTo: 16 * 1024)
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))
        as? [String: Any], object.count == 1, let raw = object["name"] as? String
    else {
      throw HTTPError(.badRequest, message: "the body must be {\"name\": string}, no other keys")
    }
    let name = raw.trimmingCharacters(in: .whitespaces)
    if let problem = PresenterActions.labelNameProblem(name) {
      throw HTTPError(.badRequest, message: problem)
    }
    return name
  }

  /// The body of `relabel`: empty or `{}` (no label), or `{"label": string}`.
  static func relabelBody(_ request: Request) async throws -> String? {
    let bytes = try await request.body.collect(upTo: 16 * 1024)
    guard bytes.readableBytes > 0 else { return nil }
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))
        as? [String: Any], Set(object.keys).isSubset(of: ["label"])
    else {
      throw HTTPError(.badRequest, message: "the body must be {\"label\": string}, no other keys")
    }
    guard let value = object["label"] else { return nil }
    guard let label = value as? String else {
      throw HTTPError(.badRequest, message: "label must be a string")
    }
    if let problem = QuestionIntake.labelProblem(label) {
      throw HTTPError(.badRequest, message: problem)
    }
    return label.isEmpty ? nil : label
  }

  /// `?label=NAME`: only the questions with that label, named in any case (a removed label
  /// as it was spelt); absent: all.
  static func labelFilter(_ request: Request, room: SessionRoom) async throws -> String? {
    guard let raw = request.uri.queryParameters["label"] else { return nil }
    let label = String(raw)
    if let problem = QuestionIntake.labelProblem(label) {
      throw HTTPError(.badRequest, message: problem)
    }
    return SessionLabels.match(label, in: try await room.store.moderation.labels()) ?? label
  }
}

/// The session's labels as the API shows them: `{"labels": [...]}`, in the order added.
struct LabelsJSON: ResponseEncodable, Sendable {
  var labels: [String]
}
