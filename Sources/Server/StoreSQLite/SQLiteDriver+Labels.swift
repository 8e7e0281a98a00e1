import Foundation
import GRDB
import QnA
import QnAStore

/// The session's labels in SQLite (extension `labels`): one `roomState` value, changed by
/// `RoomActionFlow.labels`.
extension SQLiteDriver {
  static func labels(_ db: Database, _ session: Int64) throws -> [String] {
    StoreRules.labels(from: try roomStateValue(db, session, "labels"))
  }
}
