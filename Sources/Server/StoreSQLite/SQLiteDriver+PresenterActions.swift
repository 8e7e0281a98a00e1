import Foundation
import GRDB
import QnA
import QnAStore

/// The "next up" queue as SQLite's own reads of the room see it (a presenter's actions are
/// flows written once: `TransactionFlow.perform`).
extension SQLiteDriver {
  package static func nextUp(_ db: Database, _ session: Int64, presenter: Bool) throws -> NextUp {
    StoreRules.nextUp(
      queue: StoreRules.queue(from: try roomStateValue(db, session, "queue")),
      shown: try roomStateValue(db, session, "queueShown") == "1", presenter: presenter)
  }
}
