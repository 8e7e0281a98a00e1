import Foundation
import GRDB
import QnAStore

/// The head count's rows in SQLite: one process, but the same rows and rules as PostgreSQL's,
/// so the head count takes one path whatever the database.
extension SQLiteDriver {
  package static func addPresence(_ db: Database) throws {
    try db.create(table: "presence") { table in
      table.column("session", .integer).notNull()
      table.column("attendee", .text).notNull()
      table.column("instance", .text).notNull()
      table.column("expiresAt", .double).notNull()
      table.primaryKey(["session", "attendee", "instance"])
    }
    try db.create(index: "presence_instance", on: "presence", columns: ["instance"])
  }

  package func presence(_ changes: PresenceChanges, counting sessions: [Int64])
    async throws(StoreError) -> [Int64: Int]
  {
    try await run { db in
      let instance = changes.instance.uuidString
      let leave = try db.cachedStatement(
        sql: "DELETE FROM presence WHERE session = ? AND attendee = ? AND instance = ?")
      for gone in changes.left {
        try leave.execute(arguments: [gone.session, gone.attendee.uuidString, instance])
      }
      let arrive = try db.cachedStatement(
        sql: """
          INSERT OR REPLACE INTO presence (session, attendee, instance, expiresAt)
          VALUES (?, ?, ?, ?)
          """)
      for here in changes.arrived {
        try arrive.execute(
          arguments: [here.session, here.attendee.uuidString, instance, changes.expiresAt])
      }
      if changes.complete {
        try db.execute(
          sql: """
            DELETE FROM presence WHERE (instance = ? AND expiresAt < ?) OR expiresAt <= ?
            """, arguments: [instance, changes.expiresAt, changes.now])
      }
      var counts: [Int64: Int] = [:]
      for session in sessions {
        counts[session] =
          try Int.fetchOne(
            db,
            sql: """
              SELECT COUNT(DISTINCT attendee) FROM presence WHERE session = ? AND expiresAt > ?
              """, arguments: [session, changes.now]) ?? 0
      }
      return counts
    }
  }

  package func endPresence(instance: UUID) async throws(StoreError) {
    try await run { db in
      try db.execute(
        sql: "DELETE FROM presence WHERE instance = ?", arguments: [instance.uuidString])
    }
  }
}
