import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The session's labels in PostgreSQL (extension `labels`): under the session's lock, with
/// their log row (which tells the other instances) and their token.
extension PostgresDriver {
  static func labels(_ connection: PostgresConnection, _ session: Int64, logger: Logger)
    async throws -> [String]
  {
    StoreRules.labels(from: try await roomState(connection, session, "labels", logger: logger))
  }

  package func labels(session: Int64) async throws(StoreError) -> [String] {
    try await read { [logger] connection in
      try await Self.labels(connection, session, logger: logger)
    }
  }

  package func changeLabels(
    _ kind: PresenterActionKind, _ name: String, token: UUID, at time: Date, session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    try await roomAction(
      kind.rawValue, text: name, token: token, at: time, session: session, notice: nil
    ) { [logger] connection in
      let labels = try await Self.labels(connection, session, logger: logger)
      switch StoreRules.labels(after: kind, name, labels: labels) {
      case .failure(let refusal): return .refused(refusal.reason)
      case .success(nil): return .done(changed: false)
      case .success(let changed?):
        try await Self.setRoomState(
          connection, session, "labels", StoreRules.labelsValue(changed), logger: logger)
        try await self.logChange(connection, session, nil, .labels)
        return .done(changed: true)
      }
    }
  }
}
