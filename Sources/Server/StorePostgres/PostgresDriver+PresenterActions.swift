import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The "next up" queue as PostgreSQL's own reads of the room see it (a presenter's actions
/// are flows written once: `TransactionFlow.perform`).
extension PostgresDriver {
  static func nextUp(
    _ connection: PostgresConnection, _ session: Int64, presenter: Bool, logger: Logger
  ) async throws -> NextUp {
    StoreRules.nextUp(
      queue: StoreRules.queue(
        from: try await roomState(connection, session, "queue", logger: logger)),
      shown: try await roomState(connection, session, "queueShown", logger: logger) == "1",
      presenter: presenter)
  }
}
