import Foundation
import PostgresNIO
import QnA
import QnAStore

/// Sessions in PostgreSQL: what the writes of a session's room ask of its row. The sessions
/// themselves are flows written once (`SessionSQL`).
extension PostgresDriver {
  /// Inside a write: refuses anything in a session that is gone.
  package static func requireExists(
    _ connection: PostgresConnection, _ session: Int64, logger: Logger
  )
    async throws
  {
    guard session != SessionRecord.defaultID else { return }
    guard
      try await int(
        connection.query(
          "SELECT 1 FROM session WHERE id = \(session) FOR SHARE", logger: logger)) != nil
    else { throw StoreError.sessionClosed(QuestionStore.deletedMessage) }
  }
}
