import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The session's labels in PostgreSQL (extension `labels`): one `roomState` value, changed by
/// `RoomActionFlow.labels`.
extension PostgresDriver {
  static func labels(_ connection: PostgresConnection, _ session: Int64, logger: Logger)
    async throws -> [String]
  {
    StoreRules.labels(from: try await roomState(connection, session, "labels", logger: logger))
  }
}
