import Foundation
import PostgresNIO
import QnA
import QnAStore

/// Questions in PostgreSQL: as `SQLiteDriver` does it, in PostgreSQL's SQL.
extension PostgresDriver {
  package func insert(_ question: StoredQuestion, session: Int64) async throws(StoreError) -> (
    question: StoredQuestion, inserted: Bool
  ) {
    try await write(session) { [logger] connection in
      if let token = question.token,
        let existing = try await Self.records(
          connection.query(
            "SELECT \(unescaped: Self.selected) FROM question WHERE token = \(token.uuidString)",
            logger: logger)
        ).first
      {
        guard let moved = try StoreRules.resend(question, of: existing, session: session) else {
          return (existing.question, false)
        }
        try await Self.save(moved, connection, logger: logger)
        return (moved.question, false)
      }
      try await Self.requireOpen(connection, session, logger: logger)
      var question = question
      if let label = question.label {
        let labels = try await Self.labels(connection, session, logger: logger)
        question.label = try StoreRules.sessionLabel(label, labels: labels)
      }
      try await Self.insert(QuestionRecord(question, session: session), connection, logger: logger)
      try await self.logChange(connection, session, question.id, .added)
      return (question, true)
    }
  }

  package func reassign(
    ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?, session: Int64
  )
    async throws(StoreError) -> [StoredQuestion]
  {
    try await write(session) { [logger] db in
      let byID = try await Self.records(
        db.query(
          """
          SELECT \(unescaped: Self.selected) FROM question
          WHERE session = \(session) AND id = ANY(\(ids.map(\.uuidString)))
          """, logger: logger)
      )
      let byToken = try await Self.records(
        db.query(
          """
          SELECT \(unescaped: Self.selected) FROM question
          WHERE session = \(session) AND token = ANY(\(tokens.map(\.uuidString)))
          """, logger: logger)
      )
      let moved = StoreRules.resumed(
        byID: byID, byToken: byToken, to: connection, attendee: attendee)
      for record in moved.changed { try await Self.save(record, db, logger: logger) }
      return moved.questions
    }
  }

  package func existing(ids: [UUID], session: Int64) async throws(StoreError) -> Set<UUID> {
    try await read { [logger] connection in
      var found: Set<UUID> = []
      for try await id in try await connection.query(
        "SELECT id FROM question WHERE session = \(session) AND id = ANY(\(ids.map(\.uuidString)))",
        logger: logger
      ).decode(String.self) {
        if let id = UUID(uuidString: id) { found.insert(id) }
      }
      return found
    }
  }

  /// The session's questions, oldest first.
  package static func ordered(_ connection: PostgresConnection, _ session: Int64, logger: Logger)
    async throws -> [QuestionRecord]
  {
    try await records(
      connection.query(
        """
        SELECT \(unescaped: selected) FROM question WHERE session = \(session)
        ORDER BY createdAt, rowid
        """, logger: logger))
  }

  package func page(limit: Int, before: UUID?, byVotes: Bool, label: String?, session: Int64)
    async throws(StoreError)
    -> [StoredQuestion]
  {
    try await read { [logger] connection in
      // The sort's keys, most significant first; the page resumes after the anchor's, by
      // PostgreSQL's row comparison.
      let keys = ((byVotes ? ["votes"] : []) + ["createdAt", "rowid"]).joined(separator: ", ")
      let descending = ((byVotes ? ["votes DESC"] : []) + ["createdAt DESC", "rowid DESC"])
        .joined(separator: ", ")
      var query: PostgresQuery = """
        SELECT \(unescaped: Self.selected) FROM question WHERE session = \(session)
        AND (\(label)::text IS NULL OR label = \(label))
        """
      if let before {
        let anchor = try await connection.query(
          "SELECT 1 FROM question WHERE id = \(before.uuidString) AND session = \(session)",
          logger: logger)
        guard try await Self.int(anchor) != nil else { return [] }
        query = """
          SELECT \(unescaped: Self.selected) FROM question WHERE session = \(session)
          AND (\(label)::text IS NULL OR label = \(label))
          AND (\(unescaped: keys)) < (
            SELECT \(unescaped: keys) FROM question WHERE id = \(before.uuidString))
          """
      }
      query.sql += " ORDER BY \(descending) LIMIT \(max(0, limit))"
      return try await Self.records(connection.query(query, logger: logger)).map(\.question)
    }
  }
}
