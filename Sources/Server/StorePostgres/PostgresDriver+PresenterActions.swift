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
      // A token names one action, whichever table keeps it.
      for try await _ in try await connection.query(
        "SELECT 1 FROM roomAction WHERE token = \(token.uuidString)", logger: logger
      ) {
        return QuestionStore.ActionOutcome(
          question: record.question, changed: false,
          refusal: "That token was used for another action.")
      }
      let highlighted = try await Self.roomState(
        connection, session, "highlighted", logger: logger
      ).flatMap(UUID.init(uuidString:))
      let queue = StoreRules.queue(
        from: try await Self.roomState(connection, session, "queue", logger: logger))
      let labels =
        action == .relabel
        ? try await Self.labels(connection, session, logger: logger) : []
      let step: StoreRules.ActionStep
      switch StoreRules.perform(
        action, on: record, id: id, highlighted: highlighted, text: text, isPrivate: isPrivate,
        at: time, queue: queue, labels: labels)
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
        try await Self.setRoomState(
          connection, session, "highlighted", newHighlight?.uuidString, logger: logger)
        try await self.logChange(connection, session, newHighlight, .highlight)
      }
      if let newQueue = step.queue {
        try await self.setQueue(connection, session, newQueue)
      }
      if let silence = step.silence, let attendee = step.record.attendee {
        try await connection.query(
          silence
            ? """
            INSERT INTO silenced (session, attendee, at)
            VALUES (\(session), \(attendee), \(time.timeIntervalSinceReferenceDate))
            ON CONFLICT DO NOTHING
            """
            : "DELETE FROM silenced WHERE session = \(session) AND attendee = \(attendee)",
          logger: logger)
        // The instances' filters read the silenced askers again.
        try await self.announce(connection, session, nil, .filter)
      }
      try await connection.query(
        """
        INSERT INTO transition (token, question, action, at, text)
        VALUES (\(token.uuidString), \(id.uuidString), \(action.rawValue),
          \(time.timeIntervalSinceReferenceDate), \(StoreRules.transitionText(of: action, text, record: step.record)))
        """, logger: logger)
      return QuestionStore.ActionOutcome(
        question: step.record.question,
        changed: step.changed || step.highlight != .none || step.silence != nil
          || step.queue != nil)
    }
  }

  func setQueue(_ connection: PostgresConnection, _ session: Int64, _ queue: [UUID]) async throws {
    try await Self.setRoomState(
      connection, session, "queue", StoreRules.queueValue(queue), logger: logger)
    try await logChange(connection, session, nil, .queue)
  }

  static func nextUp(
    _ connection: PostgresConnection, _ session: Int64, presenter: Bool, logger: Logger
  ) async throws -> NextUp {
    StoreRules.nextUp(
      queue: StoreRules.queue(
        from: try await roomState(connection, session, "queue", logger: logger)),
      shown: try await roomState(connection, session, "queueShown", logger: logger) == "1",
      presenter: presenter)
  }

  package func transitions(of id: UUID, session: Int64) async throws(StoreError) -> [(
    action: PresenterActionKind, at: Date, text: String?
  )] {
    try await read { [logger] connection in
      guard try await Self.record(connection, id, session, logger: logger) != nil else {
        return []
      }
      var transitions: [(action: PresenterActionKind, at: Date, text: String?)] = []
      for try await (action, at, text) in try await connection.query(
        """
        SELECT action, at, text FROM transition WHERE question = \(id.uuidString)
        ORDER BY at, rowid
        """, logger: logger
      ).decode((String, Double, String?).self) {
        if let kind = PresenterActionKind(rawValue: action) {
          transitions.append((kind, Date(timeIntervalSinceReferenceDate: at), text))
        }
      }
      return transitions
    }
  }
}
