import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The headless mode's output: one JSON object per state change. The schema is documented in
/// the README ("Headless mode"); scripts depend on it, so change it only by adding.
public enum HeadlessEvents {
  public static func line(for change: QnAChange) -> JSONLine {
    switch change {
    case .connecting(let attempt):
      JSONLine(["event": .string("connecting"), "attempt": .int(attempt)])
    case .connected:
      JSONLine(["event": .string("connected")])
    case .handshake(let id, let session):
      JSONLine(
        [("event", .string("handshake")), ("connectionId", .string(id.uuidString))]
          + (session.map {
            [("session", .string($0.code)), ("title", .string($0.title)), ("open", .bool($0.open))]
          } ?? []))
    case .queued(let question): questionLine("queued", question)
    case .sent(let question): questionLine("sent", question)
    case .created(let question, let message):
      questionLine("created", question, extra: ["message": .string(message)])
    case .waiting(let question, let retryIn, let reason):
      questionLine(
        "waiting", question,
        extra: ["retryIn": .number(retryIn / .seconds(1)), "reason": .string(reason)])
    case .failed(let question, let reason):
      questionLine("failed", question, extra: ["reason": .string(reason)])
    case .discarded(let question): questionLine("discarded", question)
    case .answered(let question): questionLine("answered", question)
    case .roomQuestion(let entry, let removed):
      roomLine(entry, removed: removed)
    case .action(let action, let outcome):
      actionLine(action, outcome)
    case .disconnected(let reason, let retry):
      JSONLine([
        "event": .string("disconnected"), "reason": .string(reason),
        "retryIn": retry.map { .number($0.after / .seconds(1)) } ?? .null,
        "attempt": retry.map { .int($0.attempt) } ?? .null,
      ])
    case .session(let session, let deleted):
      JSONLine([
        ("event", .string("session")), ("session", .string(session.code)),
        ("title", .string(session.title)), ("open", .bool(session.open)),
        ("deleted", .bool(deleted)),
      ])
    case .announcement(let text):
      JSONLine(["event": .string("announcement"), "text": text.map { .string($0) } ?? .null])
    case .poll(let id, let poll, let answer): pollLine(id, poll, answer: answer)
    case .notice(let notice):
      JSONLine([
        "event": .string("notice"), "text": .string(notice.text),
        "level": .string(notice.kind == .error ? "error" : "info"),
      ])
    }
  }

  /// One question of the room with its whole current state (`removed` only when it left).
  private static func roomLine(_ entry: RoomEntry, removed: Bool) -> JSONLine {
    var members: [(key: String, value: JSONLine.Value)] = [
      ("event", .string("room")), ("id", .string(entry.id.uuidString)),
      ("content", .string(entry.question.content)), ("votes", .int(entry.votes)),
      ("voted", .bool(entry.voted)), ("answered", .bool(entry.question.answered)),
      ("mine", .bool(entry.mine)), ("highlighted", .bool(entry.highlighted)),
      ("createdAt", .string(entry.question.createdAt.formatted(timestamp))),
    ]
    if entry.question.state != nil { members.append(("state", .string(entry.state.rawValue))) }
    if let answer = entry.answer { members.append(("answer", .string(answer))) }
    if entry.question.isPrivate == true { members.append(("private", .bool(true))) }
    if let label = entry.question.label { members.append(("label", .string(label))) }
    if removed { members.append(("removed", .bool(true))) }
    return JSONLine(members)
  }

  /// One poll with its whole current state and this attendee's answer (`removed` when it
  /// left the room).
  private static func pollLine(_ id: UUID, _ poll: RoomPoll?, answer: PollValue?) -> JSONLine {
    var members: [(key: String, value: JSONLine.Value)] = [
      ("event", .string("poll")), ("id", .string(id.uuidString)),
    ]
    guard let poll else { return JSONLine(members + [("removed", .bool(true))]) }
    members += [
      ("n", .int(poll.n)), ("kind", .string(poll.kind)), ("prompt", .string(poll.prompt)),
      ("state", .string(poll.state)), ("shown", .bool(poll.shown)),
    ]
    if let options = poll.options {
      members.append(("options", .array(options.map { .string($0) })))
    }
    if let max = poll.max { members.append(("max", .int(max))) }
    if let scale = poll.scale {
      members.append(
        ("scale", .object(JSONLine(["min": .int(scale.min), "max": .int(scale.max)]))))
    }
    if let correct = poll.correct { members.append(("correct", .array(correct.map { .int($0) }))) }
    if let results = poll.results {
      var counts: [(key: String, value: JSONLine.Value)] = [("answers", .int(results.answers))]
      if let values = results.counts { counts.append(("counts", .array(values.map { .int($0) }))) }
      if let words = results.words {
        counts.append(
          (
            "words",
            .array(
              words.map { .object(JSONLine(["text": .string($0.text), "count": .int($0.count)])) })
          ))
      }
      for (name, entries) in [("texts", results.texts), ("review", results.review)] {
        guard let entries else { continue }
        counts.append(
          (
            name,
            .array(
              entries.map {
                .object(JSONLine(["text": .string($0.text), "count": .int($0.count)]))
              })
          ))
      }
      if let held = results.held { counts.append(("held", .int(held))) }
      members.append(("results", .object(JSONLine(counts))))
    }
    if let answer { members.append(("answer", .object(valueLine(answer)))) }
    return JSONLine(members)
  }

  /// An answer as JSON, the way `pollAnswer` carries it.
  static func valueLine(_ value: PollValue) -> JSONLine {
    var members: [(key: String, value: JSONLine.Value)] = []
    if let choices = value.choices { members.append(("choices", .array(choices.map { .int($0) }))) }
    if let rating = value.rating { members.append(("rating", .int(rating))) }
    if let words = value.words { members.append(("words", .array(words.map { .string($0) }))) }
    if let text = value.text { members.append(("text", .string(text))) }
    return JSONLine(members)
  }

  /// A presenter's action: `queued`, `done` or `refused` (with the reason).
  private static func actionLine(_ action: PresenterDesk.Action, _ outcome: PresenterDesk.Outcome)
    -> JSONLine
  {
    var members: [(key: String, value: JSONLine.Value)] = [
      ("event", .string("action")), ("action", .string(action.kind.rawValue)),
      ("id", action.question.map { .string($0.uuidString) } ?? .null),
      ("token", .string(action.token.uuidString)),
    ]
    switch outcome {
    case .queued: members.append(("outcome", .string("queued")))
    case .done: members.append(("outcome", .string("done")))
    case .refused(let reason):
      members += [("outcome", .string("refused")), ("reason", .string(reason))]
    }
    return JSONLine(members)
  }

  private static func questionLine(
    _ event: String, _ question: Question, extra: KeyValuePairs<String, JSONLine.Value> = [:]
  ) -> JSONLine {
    var members: [(key: String, value: JSONLine.Value)] = [
      ("event", .string(event)), ("token", .string(question.id.uuidString)),
      ("content", .string(question.content)),
    ]
    if let serverID = question.serverID { members.append(("id", .string(serverID.uuidString))) }
    if let createdAt = question.createdAt {
      members.append(("createdAt", .string(createdAt.formatted(timestamp))))
    }
    if let state = question.state { members.append(("state", .string(state.rawValue))) }
    if let answer = question.answer { members.append(("answer", .string(answer))) }
    members += extra.map { ($0.key, $0.value) }
    return JSONLine(members)
  }

  private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
