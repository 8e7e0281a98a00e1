import Foundation
import GRDB
import GRDBSQLite
import QnA
import QnAStore

/// The store in SQLite through GRDB: a file (the default `qna.sqlite`) or `:memory:`. The
/// schema is created and migrated when the store opens. One process writes at a time; another
/// on the same file waits for its lock (`qna-server session`, a backup), but hears nothing of
/// what this one changes: sharing a database between instances takes PostgreSQL.
package final class SQLiteDriver: StoreDriver {
  package let database: DatabaseQueue

  package init(path: String) throws(StoreError) {
    do {
      var configuration = Configuration()
      // Another process (sqlite3, a backup) may hold the file for a moment: wait for it a
      // little, then report the write as failed, which the client retries.
      configuration.busyMode = .timeout(Self.busyTimeout)
      if path != ":memory:" {
        // WAL with synchronous=FULL: each commit is on disk before the server says
        // "created" or "answered", so not even a power loss takes back what it said.
        configuration.prepareDatabase { db in
          try db.execute(sql: "PRAGMA journal_mode = WAL")
          try db.execute(sql: "PRAGMA synchronous = FULL")
          // A statement that may fail halfway keeps a journal of the pages it changed, to
          // undo itself alone; past 64 KiB (a batch of votes on random pages) SQLite moves it
          // to a temporary file, made and written again at every statement (a tenth of the
          // database's CPU in a vote storm). In memory it stays a few hundred KiB: statements
          // here write bounded batches. A sort without an index (a report's) is held in
          // memory too, as large as the rows it sorts.
          try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
      }
      // ("": SQLite's private temporary database, no file of ours.)
      if path != ":memory:", !path.isEmpty { try createOwnerOnly(path) }
      database =
        path == ":memory:"
        ? try DatabaseQueue(configuration: configuration)
        : try DatabaseQueue(path: path, configuration: configuration)
      try Self.migrator.migrate(database)
    } catch {
      throw .unavailable("\(path): \(error)")
    }
  }

  /// How long a write waits for a lock another process holds.
  package static let busyTimeout: TimeInterval = 2

  package var roomFeed: RoomFeed? { nil }
  package var health: StoreHealth? { nil }

  package func prepare() async throws(StoreError) {}

  package func close() async {}

  /// Takes the write lock and gives it back.
  package func ping() async throws(StoreError) {
    do {
      try await database.writeWithoutTransaction { db in
        try db.inTransaction(.immediate) { .rollback }
      }
    } catch {
      throw .unavailable("\(error)")
    }
  }

  /// `PRAGMA temp_store` as the store's connection has it: 2 is MEMORY.
  package func temporaryStore() async throws(StoreError) -> Int {
    try await read { db in try Int.fetchOne(db, sql: "PRAGMA temp_store") ?? -1 }
  }

  /// `PRAGMA synchronous` as the store's connection has it: 2 is FULL.
  package func synchronousLevel() async throws(StoreError) -> Int {
    try await read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
  }

  package static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: questions") { db in
      try db.create(table: QuestionRecord.databaseTableName) { table in
        table.primaryKey("id", .text)
        table.column("content", .text).notNull()
        table.column("answered", .boolean).notNull().defaults(to: false)
        table.column("askedFrom", .text).notNull()
        table.column("createdAt", .double).notNull().indexed()
        table.column("token", .text).unique()
      }
    }
    // The room: who asked (a stable attendee id), votes, and a log of what changed, by a
    // sequence number attendees catch up from. Databases made before it upgrade in place.
    migrator.registerMigration("v2: room") { db in
      try db.alter(table: QuestionRecord.databaseTableName) { table in
        table.add(column: "attendee", .text)
        table.add(column: "votes", .integer).notNull().defaults(to: 0)
      }
      try db.create(table: "attendee") { table in
        table.primaryKey("id", .text)
        table.column("name", .text)
        table.column("firstSeen", .double).notNull()
      }
      try db.create(table: "vote") { table in
        table.column("attendee", .text).notNull()
        table.column("question", .text).notNull().indexed()
          .references(QuestionRecord.databaseTableName, onDelete: .cascade)
        table.column("createdAt", .double).notNull()
        table.primaryKey(["attendee", "question"])
      }
      try db.create(table: "roomLog") { table in
        table.autoIncrementedPrimaryKey("seq")
        table.column("question", .text)
        table.column("kind", .text).notNull()
      }
      try db.create(table: "roomState") { table in
        table.primaryKey("key", .text)
        table.column("value", .text)
      }
      try db.execute(
        sql: "INSERT INTO roomState (key, value) VALUES ('epoch', ?)",
        arguments: [UUID().text])
    }
    // The presenter's console: each question's state and answer, and every transition with
    // its time, by the token that makes a presenter's action exactly-once.
    migrator.registerMigration("v3: lifecycle") { db in
      try db.alter(table: QuestionRecord.databaseTableName) { table in
        table.add(column: "state", .text).notNull().defaults(to: QuestionState.live.rawValue)
        table.add(column: "answer", .text)
        table.add(column: "answerPrivate", .boolean).notNull().defaults(to: false)
        table.add(column: "answeredAt", .double)
        // Whether the room ever saw it: a question dismissed straight from review is
        // never named to attendees, not even as removed.
        table.add(column: "published", .boolean).notNull().defaults(to: true)
      }
      try db.create(table: "transition") { table in
        table.primaryKey("token", .text)
        table.column("question", .text).notNull().indexed()
          .references(QuestionRecord.databaseTableName, onDelete: .cascade)
        table.column("action", .text).notNull()
        table.column("at", .double).notNull()
        table.column("text", .text)
      }
    }
    migrator.registerMigration("v4: sessions", migrate: Self.addSessions)
    // Identity: each attendee's credential, issued by the server on its first join; and the
    // questions of one attendee found without reading the session's (for its view).
    migrator.registerMigration("v5: identity") { db in
      try db.alter(table: "attendee") { table in
        table.add(column: "credential", .text)
        // Whether a join has carried it: until then it may be issued again.
        table.add(column: "credentialProved", .boolean).notNull().defaults(to: false)
      }
      try db.create(
        index: "question_on_attendee", on: QuestionRecord.databaseTableName,
        columns: ["session", "attendee"])
    }
    // Operations: a session's idempotency key, unique where it is given; presenters' logins
    // and wrong guesses, shared by whoever opens the file.
    migrator.registerMigration("v6: operations") { db in
      try db.alter(table: SessionRecord.databaseTableName) { table in
        table.add(column: "requestToken", .text)
      }
      try db.create(
        index: "session_requestToken", on: SessionRecord.databaseTableName,
        columns: ["requestToken"], unique: true)
      try addLoginTables(db)
    }
    migrator.registerMigration("v7: toolkit", migrate: Self.addToolkit)
    migrator.registerMigration("v8: labels") { db in
      try db.alter(table: QuestionRecord.databaseTableName) { $0.add(column: "label", .text) }
    }
    // Logins tied to the token that made them; the logins made before end here.
    migrator.registerMigration("v9: login credentials", migrate: Self.addLoginCredentials)
    // The head count: which instance has which attendee in which session's room.
    migrator.registerMigration("v10: presence", migrate: Self.addPresence)
    // Personal tickets, for sessions that admit new attendees only by one.
    migrator.registerMigration("v11: tickets") { db in try db.execute(sql: TicketSQL.create) }
    // Polls, their answers and their counts.
    migrator.registerMigration("v12: polls") { db in
      for statement in PollSQL.create { try db.execute(sql: statement) }
    }
    // A poll's resets, which tell clients to forget their answer.
    migrator.registerMigration("v13: poll rounds") { db in
      for statement in PollSQL.addRound { try db.execute(sql: statement) }
    }
    // Open text polls' entries, moderated like questions.
    migrator.registerMigration("v14: poll texts") { db in
      for statement in PollSQL.addTexts { try db.execute(sql: statement) }
    }
    // Each session's attendance by the minute, for its report.
    migrator.registerMigration("v15: attendance") { db in
      for statement in AttendanceSQL.create { try db.execute(sql: statement) }
    }
    return migrator
  }

  package func run<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
    async throws(StoreError) -> T
  {
    try await StoreError.mapping { try await database.write(body) }
  }

  /// How SQLite runs `statement` (`EXPLAIN QUERY PLAN`): one line per step.
  package func plan(of statement: PortableSQL) async throws(StoreError) -> [String] {
    try await read { db in
      // Each `?N` bound to NULL (a number may come more than once): the plan does not
      // depend on the values.
      let sql = "EXPLAIN QUERY PLAN " + statement.sqlite
      let prepared = try db.makeStatement(sql: sql)
      let nulls = [DatabaseValue](
        repeating: .null, count: Int(sqlite3_bind_parameter_count(prepared.sqliteStatement)))
      return try Row.fetchAll(prepared, arguments: StatementArguments(nulls)).map {
        $0["detail"] as String? ?? ""
      }
    }
  }

  /// The columns of each of `table`'s unique indexes, in their order (its primary key's
  /// too, unless it is the rowid).
  package func uniqueKeys(of table: String) async throws(StoreError) -> [[String]] {
    try await read { db in
      try Row.fetchAll(
        db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" AND NOT partial",
        arguments: [table]
      )
      .map { row in
        // An expression's column has no name: "" (no key lookup names it).
        try String.fetchAll(
          db, sql: "SELECT coalesce(name, '') FROM pragma_index_info(?) ORDER BY seqno",
          arguments: [row["name"] as String])
      }
    }
  }

  /// How many times SQLite compiled `statement` again since the connection first prepared
  /// it: none, unless something expired the statements the connection keeps.
  package func recompilations(of statement: PortableSQL) async throws(StoreError) -> Int {
    try await run { db in
      let prepared = try db.cachedStatement(sql: statement.sqlite)
      return Int(sqlite3_stmt_status(prepared.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0))
    }
  }

  /// A read, in a deferred transaction on the one connection. Not GRDB's `read`: it turns
  /// `PRAGMA query_only` on and off around each read, and a flag pragma expires every
  /// statement the connection has prepared, so each cached statement was compiled again on
  /// its next use (a sixth of the database's CPU in a vote storm). `interpret` keeps a read
  /// flow to statements that write nothing instead.
  package func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
    async throws(StoreError) -> T
  {
    try await StoreError.mapping {
      try await database.writeWithoutTransaction { db in
        var result: T?
        try db.inTransaction(.deferred) {
          result = try body(db)
          return .commit
        }
        guard let result else { throw StoreError.unavailable("a read returned nothing") }
        return result
      }
    }
  }
}

extension QuestionRecord: FetchableRecord, PersistableRecord {
  /// Every column, and the row's number (SQLite's `SELECT *` leaves `rowid` out).
  package static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
}

/// A new database file is its owner's alone (0600, whatever the umask): it holds the
/// sessions' presenter tokens. SQLite gives the `-wal` and `-shm` files the database file's
/// mode. An existing file keeps the mode its owner gave it.
private func createOwnerOnly(_ path: String) throws(StoreError) {
  let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
  if fd >= 0 {
    close(fd)
  } else if errno != EEXIST {
    throw .unavailable("\(path): \(String(cString: strerror(errno)))")
  }
}
