import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The mock's seeding in PostgreSQL (`SeedingDriver`): each batch in one transaction, under
/// the session's lock; the votes in one statement.
extension PostgresDriver: SeedingDriver {
  package func seed(_ questions: [StoredQuestion], session: Int64) async throws(StoreError) {
    try await write(session) { [logger] connection in
      for question in questions {
        try await Self.insert(
          QuestionRecord(question, session: session), connection, logger: logger)
        try await self.logChange(connection, session, question.id, .added)
      }
    }
  }

  package func simulateVotes(
    for question: UUID, count: Int, at time: Date, makeID: @escaping @Sendable () -> UUID,
    session: Int64
  ) async throws(StoreError) -> Int? {
    try await write(session) { [logger] connection in
      guard var record = try await Self.record(connection, question, session, logger: logger)
      else { return nil }
      let voters = (0..<count).map { _ in makeID().uuidString }
      try await connection.query(
        """
        INSERT INTO vote (attendee, question, createdAt)
        SELECT voter, \(question.uuidString), \(time.timeIntervalSinceReferenceDate)
        FROM unnest(\(voters)) AS voter
        """, logger: logger)
      record.votes += count
      try await connection.query(
        Self.bound(VoteSQL.setCount, [SQLValue(record.votes), .text(record.id)]), logger: logger)
      try await self.logChange(connection, session, question, .votes)
      return record.votes
    }
  }
}
