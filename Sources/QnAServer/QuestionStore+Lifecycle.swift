import Foundation
import GRDB
import QnA

/// The presenter's side of the store: each action a transition in one transaction with its
/// log row and its token, so that a resent action is not done twice and a concurrent one from
/// another presenter sees the first one's result.
extension QuestionStore {
  public struct ActionOutcome: Sendable {
    public var question: StoredQuestion
    /// False when the token was seen before, or the question was already so.
    public var changed: Bool
    /// Why it was refused, when it was.
    public var refusal: String?
  }

  /// Does `action` to question `id` (`nil`: no such question). The token's first use is the
  /// only one that acts: a repeat returns the question as it is now.
  public func perform(
    _ action: PresenterActionKind, on id: UUID, text: String? = nil, isPrivate: Bool = false,
    token: UUID, at time: Date
  ) async throws(StoreError) -> ActionOutcome? {
    try await run { [session] db in
      guard var record = try self.record(db, id) else { return nil }
      if let seen = try Row.fetchOne(
        db, sql: "SELECT question, action FROM transition WHERE token = ?",
        arguments: [token.uuidString])
      {
        // The same action again: done already. Another one under the same token: a client
        // reusing tokens (or idempotency keys) would otherwise be told of a success that
        // never happened.
        let same = seen["question"] == id.uuidString && seen["action"] == action.rawValue
        return ActionOutcome(
          question: record.question, changed: false,
          refusal: same ? nil : "That token was used for another action.")
      }
      let before = record
      let highlighted = try Self.highlighted(db, session)
      var highlight: UUID?? = .none
      func refuse(_ reason: String) -> ActionOutcome {
        ActionOutcome(question: record.question, changed: false, refusal: reason)
      }
      switch action {
      case .approve:
        if record.state == QuestionState.dismissed.rawValue {
          return refuse("That question was dismissed: restore it instead.")
        }
        record.state = QuestionState.live.rawValue
        record.published = true
      case .dismiss:
        record.state = QuestionState.dismissed.rawValue
        if highlighted == id { highlight = .some(nil) }
      case .restore:
        // Back where it was dismissed from: one never approved waits in review again.
        if record.state == QuestionState.dismissed.rawValue {
          record.state = (record.published ? QuestionState.live : .review).rawValue
        }
      case .highlight:
        guard record.state == QuestionState.live.rawValue else {
          return refuse("Only a question the room sees can be the one being answered.")
        }
        guard !record.answered else {
          return refuse("That question is answered already: highlight an open one.")
        }
        if highlighted != id { highlight = .some(id) }
      case .unhighlight:
        if highlighted == id { highlight = .some(nil) }
      case .answer:
        record.answered = true
        if before.answeredAt == nil || !before.answered {
          record.answeredAt = time.timeIntervalSinceReferenceDate
        }
        if let text {
          record.answer = text
          record.answerPrivate = isPrivate
        }
        if highlighted == id { highlight = .some(nil) }
      }
      let changed =
        record.state != before.state || record.answered != before.answered
        || record.answer != before.answer || record.answerPrivate != before.answerPrivate
      if changed {
        try record.update(db)
        try Self.logChange(db, session, id, action == .answer ? .answered : .state)
      }
      if case .some(let newHighlight) = highlight {
        try Self.setHighlight(db, session, newHighlight)
      }
      try db.execute(
        sql: "INSERT INTO transition (token, question, action, at, text) VALUES (?, ?, ?, ?, ?)",
        arguments: [
          token.uuidString, id.uuidString, action.rawValue, time.timeIntervalSinceReferenceDate,
          action == .answer ? text : nil,
        ])
      return ActionOutcome(question: record.question, changed: changed || highlight != .none)
    }
  }

  static func setHighlight(_ db: Database, _ session: Int64, _ question: UUID?) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO roomState (session, key, value) VALUES (?, 'highlighted', ?)",
      arguments: [session, question?.uuidString])
    try logChange(db, session, question, .highlight)
  }

  /// Every transition of a question, oldest first: what the presenters did, and when.
  public func transitions(of id: UUID) async throws(StoreError) -> [(
    action: PresenterActionKind, at: Date
  )] {
    try await read { db in
      guard try self.record(db, id) != nil else { return [] }
      return try Row.fetchAll(
        db, sql: "SELECT action, at FROM transition WHERE question = ? ORDER BY at, rowid",
        arguments: [id.uuidString]
      ).compactMap { row in
        PresenterActionKind(rawValue: row["action"]).map {
          ($0, Date(timeIntervalSinceReferenceDate: row["at"]))
        }
      }
    }
  }
}
