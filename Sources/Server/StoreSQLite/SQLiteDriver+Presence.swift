import Foundation
import GRDB
import QnAStore

/// The head count's table in SQLite: one process, but the same rows and rules as
/// PostgreSQL's (`PresenceSQL`, written once), so the head count takes one path whatever the
/// database.
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
}
