import Foundation
import GRDB
import QnA
import QnAStore

extension SessionRecord: FetchableRecord, PersistableRecord {
  public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension SQLiteDriver {
  /// Every table gains its session: questions, the room's log and state, and attendees
  /// (whose names belong to the session they were given in). What a database held before
  /// is the default session's.
  package static func addSessions(_ db: Database) throws {
    try db.create(table: SessionRecord.databaseTableName) { table in
      table.autoIncrementedPrimaryKey("id")
      table.column("code", .text).notNull().unique()
      table.column("title", .text).notNull()
      table.column("token", .text).notNull()
      table.column("open", .boolean).notNull().defaults(to: true)
      table.column("createdAt", .double).notNull()
    }
    for table in [QuestionRecord.databaseTableName, "roomLog"] {
      try db.alter(table: table) { table in
        table.add(column: "session", .integer).notNull().defaults(to: SessionRecord.defaultID)
      }
    }
    try db.create(index: "question_session", on: "question", columns: ["session", "createdAt"])
    try db.create(index: "roomLog_session", on: "roomLog", columns: ["session", "seq"])
    // Keyed by session from now on: SQLite changes a primary key only by copying the table.
    // The session column defaults to the default session, so that an older binary on the
    // same file still writes where it always did.
    try db.create(table: "roomStateBySession") { table in
      table.column("session", .integer).notNull().defaults(to: SessionRecord.defaultID)
      table.column("key", .text).notNull()
      table.column("value", .text)
      table.primaryKey(["session", "key"])
    }
    try db.execute(
      sql:
        "INSERT INTO roomStateBySession (session, key, value) SELECT 0, key, value FROM roomState"
    )
    try db.drop(table: "roomState")
    try db.rename(table: "roomStateBySession", to: "roomState")
    try db.create(table: "attendeeBySession") { table in
      table.column("session", .integer).notNull().defaults(to: SessionRecord.defaultID)
      table.column("id", .text).notNull()
      table.column("name", .text)
      table.column("firstSeen", .double).notNull()
      table.primaryKey(["session", "id"])
    }
    try db.execute(
      sql: """
        INSERT INTO attendeeBySession (session, id, name, firstSeen)
        SELECT 0, id, name, firstSeen FROM attendee
        """)
    try db.drop(table: "attendee")
    try db.rename(table: "attendeeBySession", to: "attendee")
  }
}
