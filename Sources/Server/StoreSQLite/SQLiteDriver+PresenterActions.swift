import Foundation
import GRDB
import QnA
import QnAStore

/// The presenters' actions in SQLite: each a transition in one transaction with its log row
/// and its token.
extension SQLiteDriver {
  package func perform(
    _ action: PresenterActionKind, on id: UUID, text: String?, isPrivate: Bool, token: UUID,
    at time: Date, session: Int64
  ) async throws(StoreError) -> QuestionStore.ActionOutcome? {
    try await run { db in
      guard let record = try Self.record(db, id, session) else { return nil }
      if let seen = try Row.fetchOne(
        db, sql: "SELECT question, action FROM transition WHERE token = ?",
        arguments: [token.uuidString])
      {
        return QuestionStore.ActionOutcome(
          question: record.question, changed: false,
          refusal: StoreRules.repeatRefusal(
            seenQuestion: seen["question"], seenAction: seen["action"], action: action, on: id))
      }
      // A token names one action, whichever table keeps it.
      if try Bool.fetchOne(
        db, sql: "SELECT 1 FROM roomAction WHERE token = ?", arguments: [token.uuidString]) != nil
      {
        return QuestionStore.ActionOutcome(
          question: record.question, changed: false,
          refusal: "That token was used for another action.")
      }
      let step: StoreRules.ActionStep
      let queue = StoreRules.queue(from: try Self.roomStateValue(db, session, "queue"))
      let labels =
        action == .relabel
        ? try Self.labels(db, session) : []
      switch StoreRules.perform(
        action, on: record, id: id, highlighted: try Self.highlighted(db, session), text: text,
        isPrivate: isPrivate, at: time, queue: queue, labels: labels)
      {
      case .failure(let refusal):
        return QuestionStore.ActionOutcome(
          question: record.question, changed: false, refusal: refusal.reason)
      case .success(let success): step = success
      }
      if step.changed {
        try step.record.update(db)
        try Self.logChange(db, session, id, StoreRules.logKind(of: action))
      }
      if case .some(let newHighlight) = step.highlight {
        try Self.setHighlight(db, session, newHighlight)
      }
      if let newQueue = step.queue { try Self.setQueue(db, session, newQueue) }
      if let silence = step.silence, let attendee = step.record.attendee {
        try db.execute(
          sql: silence
            ? "INSERT OR IGNORE INTO silenced (session, attendee, at) VALUES (?, ?, ?)"
            : "DELETE FROM silenced WHERE session = ? AND attendee = ?",
          arguments: silence
            ? [session, attendee, time.timeIntervalSinceReferenceDate] : [session, attendee])
      }
      try db.execute(
        sql: "INSERT INTO transition (token, question, action, at, text) VALUES (?, ?, ?, ?, ?)",
        arguments: [
          token.uuidString, id.uuidString, action.rawValue, time.timeIntervalSinceReferenceDate,
          StoreRules.transitionText(of: action, text, record: step.record),
        ])
      return QuestionStore.ActionOutcome(
        question: step.record.question,
        changed: step.changed || step.highlight != .none || step.silence != nil
          || step.queue != nil)
    }
  }

  package static func setQueue(_ db: Database, _ session: Int64, _ queue: [UUID]) throws {
    try Self.setRoomState(db, session, "queue", StoreRules.queueValue(queue))
    try logChange(db, session, nil, .queue)
  }

  package static func nextUp(_ db: Database, _ session: Int64, presenter: Bool) throws -> NextUp {
    StoreRules.nextUp(
      queue: StoreRules.queue(from: try roomStateValue(db, session, "queue")),
      shown: try roomStateValue(db, session, "queueShown") == "1", presenter: presenter)
  }

  package static func setHighlight(_ db: Database, _ session: Int64, _ question: UUID?) throws {
    try Self.setRoomState(db, session, "highlighted", question?.uuidString)
    try logChange(db, session, question, .highlight)
  }

  package func transitions(of id: UUID, session: Int64) async throws(StoreError) -> [(
    action: PresenterActionKind, at: Date, text: String?
  )] {
    try await read { db in
      guard try Self.record(db, id, session) != nil else { return [] }
      return try Row.fetchAll(
        db,
        sql: "SELECT action, at, text FROM transition WHERE question = ? ORDER BY at, rowid",
        arguments: [id.uuidString]
      ).compactMap { row in
        PresenterActionKind(rawValue: row["action"]).map {
          ($0, Date(timeIntervalSinceReferenceDate: row["at"]), row["text"])
        }
      }
    }
  }
}
