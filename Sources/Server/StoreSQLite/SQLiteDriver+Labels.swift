import Foundation
import GRDB
import QnA
import QnAStore

/// The session's labels in SQLite (extension `labels`): one `roomState` value, changed with
/// its log row and its token in one transaction.
extension SQLiteDriver {
  static func labels(_ db: Database, _ session: Int64) throws -> [String] {
    StoreRules.labels(from: try roomStateValue(db, session, "labels"))
  }

  package func labels(session: Int64) async throws(StoreError) -> [String] {
    try await read { db in try Self.labels(db, session) }
  }

  package func changeLabels(
    _ kind: PresenterActionKind, _ name: String, token: UUID, at time: Date, session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    try await roomAction(kind.rawValue, text: name, token: token, at: time, session: session) {
      db in
      let labels = try Self.labels(db, session)
      switch StoreRules.labels(after: kind, name, labels: labels) {
      case .failure(let refusal): return .refused(refusal.reason)
      case .success(nil): return .done(changed: false)
      case .success(let changed?):
        try Self.setRoomState(db, session, "labels", StoreRules.labelsValue(changed))
        try Self.logChange(db, session, nil, .labels)
        return .done(changed: true)
      }
    }
  }
}
