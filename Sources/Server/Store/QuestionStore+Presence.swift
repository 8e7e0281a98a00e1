import Foundation

/// The head count (extension `audience`) in the database, where every instance on it writes
/// the attendees it has, so that every screen shows the same count. Not scoped to the
/// store's session: one call carries every session's changes.
extension QuestionStore {
  /// Writes one instance's `changes`, then counts the distinct attendees present in each of
  /// `sessions` on any instance (rows not lapsed), in one transaction. A session with nobody
  /// present may be missing from the answer.
  package func presence(_ changes: PresenceChanges, counting sessions: [Int64])
    async throws(StoreError) -> [Int64: Int]
  {
    try await timed { try await driver.perform(.presence(changes, counting: sessions)) }
  }

  /// Deletes an instance's rows: it is shutting down, its attendees are leaving it.
  package func endPresence(instance: UUID) async throws(StoreError) {
    try await timed {
      try await driver.perform(
        .run(PresenceSQL.end, [.text(instance.text)], then: .done(())))
    }
  }
}
