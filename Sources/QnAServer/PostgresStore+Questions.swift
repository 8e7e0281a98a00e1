import Foundation
import PostgresNIO
import QnA

/// Questions in PostgreSQL: as `SQLiteStore` does it, in PostgreSQL's SQL.
extension PostgresStore {
  func insert(_ question: StoredQuestion, session: Int64) async throws(StoreError) -> (
    question: StoredQuestion, inserted: Bool
  ) {
    try await write(session) { [logger] connection in
      if let token = question.token,
        var existing = try await Self.records(
          connection.query(
            "SELECT \(unescaped: Self.columns) FROM question WHERE token = \(token.uuidString)",
            logger: logger)
        ).first
      {
        // Tokens are the asker's secret, unique in the database: one shown to another
        // session names nothing there.
        guard existing.session == session else {
          throw StoreError.sessionClosed("That token belongs to a question elsewhere.")
        }
        if existing.askedFrom != question.askedFrom.uuidString,
          QuestionStore.mayClaim(existing, question.attendee)
        {
          existing.askedFrom = question.askedFrom.uuidString
          try await Self.save(existing, connection, logger: logger)
        }
        return (existing.question, false)
      }
      try await Self.requireOpen(connection, session, logger: logger)
      try await Self.insert(QuestionRecord(question, session: session), connection, logger: logger)
      try await self.logChange(connection, session, question.id, .added)
      return (question, true)
    }
  }

  func reassign(ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?, session: Int64)
    async throws(StoreError) -> [StoredQuestion]
  {
    try await write(session) { [logger] db in
      let byID = try await Self.records(
        db.query(
          """
          SELECT \(unescaped: Self.columns) FROM question
          WHERE session = \(session) AND id = ANY(\(ids.map(\.uuidString)))
          """, logger: logger)
      ).filter { $0.attendee != nil && $0.attendee == attendee?.uuidString }
      let byToken = try await Self.records(
        db.query(
          """
          SELECT \(unescaped: Self.columns) FROM question
          WHERE session = \(session) AND token = ANY(\(tokens.map(\.uuidString)))
          """, logger: logger)
      ).filter { QuestionStore.mayClaim($0, attendee) }
      var seen: Set<String> = []
      var moved: [StoredQuestion] = []
      for var record in byID + byToken where seen.insert(record.id).inserted {
        if record.askedFrom != connection.uuidString {
          record.askedFrom = connection.uuidString
          try await Self.save(record, db, logger: logger)
        }
        moved.append(record.question)
      }
      return moved.sorted { $0.createdAt < $1.createdAt }
    }
  }

  func existing(ids: [UUID], session: Int64) async throws(StoreError) -> Set<UUID> {
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

  func all(session: Int64) async throws(StoreError) -> [StoredQuestion] {
    try await read { [logger] connection in
      try await Self.ordered(connection, session, logger: logger).map(\.question)
    }
  }

  /// The session's questions, oldest first.
  static func ordered(_ connection: PostgresConnection, _ session: Int64, logger: Logger)
    async throws -> [QuestionRecord]
  {
    try await records(
      connection.query(
        """
        SELECT \(unescaped: columns) FROM question WHERE session = \(session)
        ORDER BY createdAt, rowid
        """, logger: logger))
  }

  func page(limit: Int, before: UUID?, byVotes: Bool, session: Int64) async throws(StoreError)
    -> [StoredQuestion]
  {
    try await read { [logger] connection in
      // The sort's keys, most significant first; the page resumes after the anchor's, by
      // PostgreSQL's row comparison.
      let keys = ((byVotes ? ["votes"] : []) + ["createdAt", "rowid"]).joined(separator: ", ")
      let descending = ((byVotes ? ["votes DESC"] : []) + ["createdAt DESC", "rowid DESC"])
        .joined(separator: ", ")
      var query: PostgresQuery =
        "SELECT \(unescaped: Self.columns) FROM question WHERE session = \(session)"
      if let before {
        let anchor = try await connection.query(
          "SELECT 1 FROM question WHERE id = \(before.uuidString) AND session = \(session)",
          logger: logger)
        guard try await Self.int(anchor) != nil else { return [] }
        query = """
          SELECT \(unescaped: Self.columns) FROM question WHERE session = \(session)
          AND (\(unescaped: keys)) < (
            SELECT \(unescaped: keys) FROM question WHERE id = \(before.uuidString))
          """
      }
      query.sql += " ORDER BY \(descending) LIMIT \(max(0, limit))"
      return try await Self.records(connection.query(query, logger: logger)).map(\.question)
    }
  }

  func counts(session: Int64) async throws(StoreError) -> (total: Int, answered: Int) {
    try await read { [logger] connection in
      for try await (total, answered) in try await connection.query(
        """
        SELECT COUNT(*), COUNT(*) FILTER (WHERE answered) FROM question
        WHERE session = \(session)
        """, logger: logger
      ).decode((Int, Int).self) {
        return (total, answered)
      }
      return (0, 0)
    }
  }

  func question(token: UUID, session: Int64) async throws(StoreError) -> StoredQuestion? {
    try await read { [logger] connection in
      try await Self.records(
        connection.query(
          """
          SELECT \(unescaped: Self.columns) FROM question
          WHERE session = \(session) AND token = \(token.uuidString)
          """, logger: logger)
      ).first?.question
    }
  }

  func question(id: UUID, session: Int64) async throws(StoreError) -> StoredQuestion? {
    try await read { [logger] connection in
      try await Self.record(connection, id, session, logger: logger)?.question
    }
  }
}
