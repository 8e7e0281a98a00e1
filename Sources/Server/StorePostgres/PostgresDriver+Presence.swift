import Foundation
import PostgresNIO
import QnAStore

/// The head count's rows in PostgreSQL: each instance writes only its own (its id is in the
/// key), so instances never wait on each other's rows, and every instance counts them all.
extension PostgresDriver {
  package func presence(_ changes: PresenceChanges, counting sessions: [Int64])
    async throws(StoreError) -> [Int64: Int]
  {
    try await transaction(locking: nil) { [logger] connection in
      let instance = changes.instance.uuidString
      // One statement per kind of change, however many attendees it carries.
      if !changes.left.isEmpty {
        let sessionIDs = changes.left.map { $0.session }
        let attendeeIDs = changes.left.map { $0.attendee.uuidString }
        try await connection.query(
          """
          DELETE FROM presence WHERE instance = \(instance) AND (session, attendee) IN (
            SELECT * FROM unnest(\(sessionIDs)::bigint[], \(attendeeIDs)::text[]))
          """, logger: logger)
      }
      if !changes.arrived.isEmpty {
        let sessionIDs = changes.arrived.map { $0.session }
        let attendeeIDs = changes.arrived.map { $0.attendee.uuidString }
        try await connection.query(
          """
          INSERT INTO presence (session, attendee, instance, expiresAt)
          SELECT arrived.session, arrived.attendee, \(instance), \(changes.expiresAt)
          FROM unnest(\(sessionIDs)::bigint[], \(attendeeIDs)::text[])
            AS arrived (session, attendee)
          ON CONFLICT (session, attendee, instance) DO UPDATE SET expiresAt = EXCLUDED.expiresAt
          """, logger: logger)
      }
      if changes.complete {
        try await connection.query(
          """
          DELETE FROM presence
          WHERE (instance = \(instance) AND expiresAt < \(changes.expiresAt))
            OR expiresAt <= \(changes.now)
          """, logger: logger)
      }
      var counts: [Int64: Int] = [:]
      guard !sessions.isEmpty else { return counts }
      for try await (session, count) in try await connection.query(
        """
        SELECT session, COUNT(DISTINCT attendee)::bigint FROM presence
        WHERE session = ANY(\(sessions)) AND expiresAt > \(changes.now)
        GROUP BY session
        """, logger: logger
      ).decode((Int64, Int).self) {
        counts[session] = count
      }
      return counts
    }
  }

  package func endPresence(instance: UUID) async throws(StoreError) {
    try await transaction(locking: nil) { [logger] connection in
      try await connection.query(
        "DELETE FROM presence WHERE instance = \(instance.uuidString)", logger: logger)
    }
  }
}
