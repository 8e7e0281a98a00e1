import Foundation

/// The room's own rows outside its hot paths, written once for both databases: its log's
/// last sequence number and its attendees' names (`QuestionStore+Room`).
package enum RoomSQL {
  /// $1 session.
  static let currentSeq: PortableSQL =
    "SELECT COALESCE(MAX(seq), 0) FROM roomLog WHERE session = $1"
  /// $1 session: its row, held against a deletion until this write ends (PostgreSQL).
  static let sessionExists: PortableSQL = "SELECT 1 FROM session WHERE id = $1 FOR SHARE"
  /// $1 session, $2 attendee, $3 name, $4 first seen: the name may change, not the first
  /// sight.
  static let join: PortableSQL = """
    INSERT INTO attendee (session, id, name, firstSeen) VALUES ($1, $2, $3, $4)
    ON CONFLICT (session, id) DO UPDATE SET name = excluded.name
    """
}

extension TransactionFlow where Output == Int {
  /// The session's last sequence number (0 for a room where nothing happened yet).
  package static func currentSeq(session: Int64) -> TransactionFlow {
    .rows(RoomSQL.currentSeq, [.integer(session)]) { rows in .done(rows.first?.int(0) ?? 0) }
  }
}

extension TransactionFlow where Output == Void {
  /// Refuses anything in a session that is gone.
  package static func requireExists(_ session: Int64) -> TransactionFlow {
    guard session != SessionRecord.defaultID else { return .done(()) }
    return .rows(RoomSQL.sessionExists, [.integer(session)]) { rows in
      rows.isEmpty ? .fail(.sessionClosed(QuestionStore.deletedMessage)) : .done(())
    }
  }

  /// Records the attendee, and its name, in the session. It logs nothing, so it takes no
  /// turn on the session's lock (a room of joins at once would queue on it).
  package static func join(attendee: UUID, name: String?, at time: Date, session: Int64)
    -> TransactionFlow
  {
    requireExists(session).then { _ in
      .run(
        RoomSQL.join,
        [
          .integer(session), .text(attendee.text), SQLValue(name),
          .real(time.timeIntervalSinceReferenceDate),
        ], then: .done(()))
    }
  }
}
