import Foundation
import PostgresNIO
import QnA
import QnAStore

/// A page of questions in PostgreSQL, resumed after its anchor by PostgreSQL's row comparison
/// (the rest of a question's reads and writes are flows written once: `QuestionSQL`).
extension PostgresDriver {
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
