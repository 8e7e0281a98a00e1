import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The presenters' actions on the room in PostgreSQL: under the session's lock, each with
/// its log row and its token.
extension PostgresDriver {
  package func announcement(session: Int64) async throws(StoreError) -> Announcement? {
    try await read { [logger] connection in
      StoreRules.announcement(
        from: try await Self.roomState(connection, session, "announcement", logger: logger))
    }
  }

  package func announce(_ text: String?, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    try await write(session) { [logger] connection in
      try await Self.requireExists(connection, session, logger: logger)
      for try await (seenAction, seenText) in try await connection.query(
        "SELECT action, text FROM roomAction WHERE token = \(token.uuidString)", logger: logger
      ).decode((String, String?).self) {
        return QuestionStore.RoomActionOutcome(
          changed: false,
          refusal: StoreRules.repeatRefusal(
            seenAction: seenAction, seenText: seenText, action: .announce, text: text))
      }
      let step = StoreRules.announce(
        text, over: try await Self.roomState(connection, session, "announcement", logger: logger),
        at: time)
      if case .some(let value) = step {
        try await connection.query(
          """
          INSERT INTO roomState (session, key, value) VALUES (\(session), 'announcement', \(value))
          ON CONFLICT (session, key) DO UPDATE SET value = excluded.value
          """, logger: logger)
        try await self.logChange(connection, session, nil, .announcement)
      }
      try await connection.query(
        """
        INSERT INTO roomAction (token, session, action, at, text)
        VALUES (\(token.uuidString), \(session), \(PresenterActionKind.announce.rawValue),
          \(time.timeIntervalSinceReferenceDate), \(text))
        """, logger: logger)
      return QuestionStore.RoomActionOutcome(changed: step != .none)
    }
  }
}
