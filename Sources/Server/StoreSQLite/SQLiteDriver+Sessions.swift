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

  package func insertSession(_ record: SessionRecord, epoch: UUID) async throws(StoreError)
    -> SessionRecord?
  {
    try await run { db -> SessionRecord? in
      guard try SessionRecord.filter(Column("code") == record.code).fetchCount(db) == 0,
        try record.requestToken.map({
          try SessionRecord.filter(Column("requestToken") == $0).fetchCount(db)
        }) ?? 0 == 0
      else { return nil }
      let saved = try record.inserted(db)
      if let id = saved.id {  // an inserted row always has one
        try Self.setRoomState(db, id, "epoch", epoch.uuidString)
      }
      return saved
    }
  }

  package func session(code: String) async throws(StoreError) -> SessionRecord? {
    try await read { db in try SessionRecord.filter(Column("code") == code).fetchOne(db) }
  }

  package func session(requestToken: String) async throws(StoreError) -> SessionRecord? {
    try await read { db in
      try SessionRecord.filter(Column("requestToken") == requestToken).fetchOne(db)
    }
  }

  package func sessions() async throws(StoreError) -> [SessionSummary] {
    try await read { db in
      let counts = try Dictionary(
        Row.fetchAll(db, sql: "SELECT session, COUNT(*) AS n FROM question GROUP BY session")
          .map { (row: Row) -> (Int64, Int) in (row["session"], row["n"]) },
        uniquingKeysWith: +)
      return try SessionRecord.order(Column("createdAt"), Column("id")).fetchAll(db).map {
        SessionSummary(session: $0, questions: counts[$0.id ?? -1] ?? 0)
      }
    }
  }

  package func setSession(code: String, open: Bool) async throws(StoreError) -> SessionRecord? {
    try await run { db in
      guard var record = try SessionRecord.filter(Column("code") == code).fetchOne(db) else {
        return nil
      }
      record.open = open
      try record.update(db)
      return record
    }
  }

  package func deleteSession(code: String) async throws(StoreError) -> SessionRecord? {
    try await run { db in
      guard let record = try SessionRecord.filter(Column("code") == code).fetchOne(db),
        let id = record.id
      else { return nil }
      // Votes and transitions go with their questions (foreign keys, ON DELETE CASCADE).
      for table in StoreRules.sessionTables {
        try db.execute(sql: "DELETE FROM \(table) WHERE session = ?", arguments: [id])
      }
      try record.delete(db)
      return record
    }
  }

  /// Inside a write: refuses anything in a session that is gone.
  package static func requireExists(_ db: Database, _ session: Int64) throws {
    guard session != SessionRecord.defaultID else { return }
    guard try SessionRecord.exists(db, key: session) else {
      throw StoreError.sessionClosed(QuestionStore.deletedMessage)
    }
  }

  /// Inside a write: refuses a new question in a session that is closed or gone.
  package static func requireOpen(_ db: Database, _ session: Int64) throws {
    guard session != SessionRecord.defaultID else { return }
    guard
      let open = try Bool.fetchOne(
        db, sql: "SELECT open FROM session WHERE id = ?", arguments: [session])
    else {
      throw StoreError.sessionClosed(QuestionStore.deletedMessage)
    }
    if !open { throw StoreError.sessionClosed(QuestionStore.closedMessage) }
  }
}
