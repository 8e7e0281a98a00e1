import Foundation
import GRDB
import QnA
import QnAStore

/// The mock's seeding in SQLite (`SeedingDriver`): each batch in one transaction.
extension SQLiteDriver: SeedingDriver {
  package func seed(_ questions: [StoredQuestion], session: Int64) async throws(StoreError) {
    try await run { db in
      for question in questions {
        try QuestionRecord(question, session: session).insert(db)
        try Self.logChange(db, session, question.id, .added)
      }
    }
  }

  package func simulateVotes(
    for question: UUID, count: Int, at time: Date, makeID: @escaping @Sendable () -> UUID,
    session: Int64
  ) async throws(StoreError) -> Int? {
    try await run { db in
      guard var record = try Self.record(db, question, session) else { return nil }
      for _ in 0..<count {
        try db.cachedStatement(sql: VoteSQL.add.sqlite).execute(arguments: [
          makeID().uuidString, question.uuidString, time.timeIntervalSinceReferenceDate,
        ])
      }
      record.votes += count
      try db.cachedStatement(sql: VoteSQL.setCount.sqlite)
        .execute(arguments: [record.votes, record.id])
      try Self.logChange(db, session, question, .votes)
      return record.votes
    }
  }
}
