import Foundation

/// The head count's rows (extension `audience`), written once for both databases: each
/// instance writes only its own (its id is in the key), so that instances never wait on each
/// other's rows, and every instance counts them all.
package enum PresenceSQL {
  /// Rows of (instance, session, attendee): those attendees left this instance.
  static func leave(rows: Int) -> PortableSQL {
    .keyed(
      "DELETE FROM presence WHERE", by: ["instance", "session", "attendee"], rows: rows,
      indexed: ["session", "attendee", "instance"], mixedTypes: true)
  }
  /// Rows of (session, attendee, instance, expiresAt): present until then, unless written
  /// again.
  static func arrive(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO presence (session, attendee, instance, expiresAt) VALUES "
        + PortableSQL.valueRows(width: 4, count: rows)
        + " ON CONFLICT (session, attendee, instance) DO UPDATE SET expiresAt = excluded.expiresAt"
    )
  }
  /// $1 instance, $2 its rows' new expiry, $3 now: the instance's rows it did not write again,
  /// and any instance's rows that lapsed.
  static let sweep: PortableSQL = """
    DELETE FROM presence WHERE (instance = $1 AND expiresAt < $2) OR expiresAt <= $3
    """
  /// $1 now: each session's distinct attendees present on any instance.
  static let count: PortableSQL = """
    SELECT session, COUNT(DISTINCT attendee) FROM presence WHERE expiresAt > $1
    GROUP BY session
    """
  /// $1 instance.
  static let end: PortableSQL = "DELETE FROM presence WHERE instance = $1"
}

extension TransactionFlow where Output == [Int64: Int] {
  /// One instance's changes written, then each of `sessions` counted, in one transaction.
  package static func presence(_ changes: PresenceChanges, counting sessions: [Int64])
    -> TransactionFlow
  {
    let instance = SQLValue.text(changes.instance.text)
    // The sessions whose attendees came or went are counted too, for their attendance.
    let moved = Set((changes.arrived + changes.left).map(\.session))
    let counted = Set(sessions).union(moved)
    // Nothing watched or moved, nothing to count.
    let count: TransactionFlow =
      counted.isEmpty
      ? .done([:])
      : .rows(PresenceSQL.count, [.real(changes.now)]) { rows in
        var counts: [Int64: Int] = [:]
        for row in rows {
          if let session = row.integer(0), counted.contains(session) {
            counts[session] = row.int(1) ?? 0
          }
        }
        let all = counts
        let minute = Int64((changes.now / 60).rounded(.down))
        return .runInChunks(
          moved.sorted().map {
            [.integer($0), .integer(minute), SQLValue(all[$0] ?? 0), SQLValue(all[$0] ?? 0)]
          },
          AttendanceSQL.record(rows:), then: .done(counts.filter { sessions.contains($0.key) }))
      }
    let swept =
      changes.complete
      ? .run(
        PresenceSQL.sweep, [instance, .real(changes.expiresAt), .real(changes.now)], then: count)
      : count
    let seen = TransactionFlow.runInChunks(
      changes.seen.map { [.integer($0.session), .text($0.attendee.text)] },
      AttendanceSQL.seen(rows:), then: swept)
    let arrived = TransactionFlow.runInChunks(
      changes.arrived.map {
        [.integer($0.session), .text($0.attendee.text), instance, .real(changes.expiresAt)]
      }, PresenceSQL.arrive(rows:), then: seen)
    return .runInChunks(
      changes.left.map { [instance, .integer($0.session), .text($0.attendee.text)] },
      PresenceSQL.leave(rows:), then: arrived)
  }
}
