import Foundation
import GRDB
import QnA
import QnAStore

/// The tables of the presenters' actions on the room and of the word filters in SQLite, and
/// the room's state as the driver's own transactions read it (the actions themselves are
/// `RoomActionFlow`s, written once).
extension SQLiteDriver {
  /// Migration "v7: toolkit": the log of actions on the room (their tokens make them
  /// exactly-once), the sessions' word filters, and what a question's text matched in them.
  static func addToolkit(_ db: Database) throws {
    try db.alter(table: QuestionRecord.databaseTableName) { table in
      table.add(column: "flagged", .text)
      table.add(column: "original", .text)
      table.add(column: "starred", .boolean).notNull().defaults(to: false)
    }
    try db.create(table: "silenced") { table in
      table.column("session", .integer).notNull()
      table.column("attendee", .text).notNull()
      table.column("at", .double).notNull()
      table.primaryKey(["session", "attendee"])
    }
    try db.create(table: "filterWord") { table in
      table.column("session", .integer).notNull()
      table.column("list", .text).notNull()
      table.column("entry", .text).notNull()
      table.primaryKey(["session", "list", "entry"])
    }
    try db.create(table: "roomAction") { table in
      table.primaryKey("token", .text)
      table.column("session", .integer).notNull()
      table.column("action", .text).notNull()
      table.column("at", .double).notNull()
      table.column("text", .text)
    }
    try db.create(index: "roomAction_session", on: "roomAction", columns: ["session", "at"])
  }
}
