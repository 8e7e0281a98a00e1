import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The presenters' actions in PostgreSQL: under the session's lock, so that two presenters
/// on two instances act one after the other, each seeing the other's result.
extension PostgresDriver {
  package func perform(
    _ action: PresenterActionKind, on id: UUID, text: String?, isPrivate: Bool, token: UUID,
    at time: Date, session: Int64
  ) async throws(StoreError) -> QuestionStore.ActionOutcome? {
    try await write(session) { [logger] connection in
      guard let record = try await Self.record(connection, id, session, logger: logger) else {
        return nil
      }
      for try await (question, seenAction) in try await connection.query(
        "SELECT question, action FROM transition WHERE token = \(token.uuidString)",
        logger: logger
      ).decode((String, String).self) {
        return QuestionStore.ActionOutcome(
          question: record.question, changed: false,
          refusal: StoreRules.repeatRefusal(
            seenQuestion: question, seenAction: seenAction, action: action, on: id))
      }
      let highlighted = try await Self.roomState(
        connection, session, "highlighted", logger: logger
      ).flatMap(UUID.init(uuidString:))
      let step: StoreRules.ActionStep
      switch StoreRules.perform(
        action, on: record, id: id, highlighted: highlighted, text: text, isPrivate: isPrivate,
        at: time)
      {
      case .failure(let refusal):
        return QuestionStore.ActionOutcome(
          question: record.question, changed: false, refusal: refusal.reason)
      case .success(let success): step = success
      }
      if step.changed {
        try await Self.save(step.record, connection, logger: logger)
        try await self.logChange(connection, session, id, StoreRules.logKind(of: action))
      }
      if case .some(let newHighlight) = step.highlight {
        try await connection.query(
          """
          INSERT INTO roomState (session, key, value)
          VALUES (\(session), 'highlighted', \(newHighlight?.uuidString))
          ON CONFLICT (session, key) DO UPDATE SET value = excluded.value
          """, logger: logger)
        try await self.logChange(connection, session, newHighlight, .highlight)
      }
      try await connection.query(
        """
        INSERT INTO transition (token, question, action, at, text)
        VALUES (\(token.uuidString), \(id.uuidString), \(action.rawValue),
          \(time.timeIntervalSinceReferenceDate), \(action == .answer ? text : nil))
        """, logger: logger)
      return QuestionStore.ActionOutcome(
        question: step.record.question, changed: step.changed || step.highlight != .none)
    }
  }

  package func transitions(of id: UUID, session: Int64) async throws(StoreError) -> [(
    action: PresenterActionKind, at: Date
  )] {
    try await read { [logger] connection in
      guard try await Self.record(connection, id, session, logger: logger) != nil else {
        return []
      }
      var transitions: [(action: PresenterActionKind, at: Date)] = []
      for try await (action, at) in try await connection.query(
        "SELECT action, at FROM transition WHERE question = \(id.uuidString) ORDER BY at, rowid",
        logger: logger
      ).decode((String, Double).self) {
        if let kind = PresenterActionKind(rawValue: action) {
          transitions.append((kind, Date(timeIntervalSinceReferenceDate: at)))
        }
      }
      return transitions
    }
  }
}
