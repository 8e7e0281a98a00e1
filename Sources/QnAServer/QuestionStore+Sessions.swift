import Foundation
import GRDB
import QnA

/// One talk's Q&A: a title, the join code attendees type, the presenter token that guards
/// only this session, and whether it still takes questions. The default session (`/socket`)
/// has no row: it is the tutorial's single room, id 0.
public struct SessionRecord: Sendable, Hashable, Codable, FetchableRecord, PersistableRecord {
  public static let databaseTableName = "session"
  public static let defaultID: Int64 = 0

  public var id: Int64?
  public var code: String
  public var title: String
  public var token: String
  public var open: Bool
  public var createdAt: Double

  public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A session as listed: its record and how many questions it has.
public struct SessionSummary: Sendable, Hashable {
  public var session: SessionRecord
  public var questions: Int
}

extension QuestionStore {
  /// Every table gains its session: questions, the room's log and state, and attendees
  /// (whose names belong to the session they were given in). What a database held before
  /// is the default session's.
  static func addSessions(_ db: Database) throws {
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

  /// A fresh code or token: `length` letters of the code alphabet (5 bits each).
  public static func randomLetters(
    _ length: Int, using random: inout some RandomNumberGenerator
  ) -> String {
    String((0..<length).map { _ in JoinCode.alphabet.randomElement(using: &random)! })
  }

  /// A session's title, trimmed: 1 to 200 characters on one line (`nil` otherwise).
  public static func validTitle(_ raw: String) -> String? {
    let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty, title.count <= maxTitleLength,
      !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return nil }
    return title
  }

  public static let maxTitleLength = 200
  public static let titleRule =
    "a title is 1–\(maxTitleLength) characters on one line, without control characters"

  /// Letters in a presenter token: 150 random bits.
  public static let tokenLength = 30

  /// Creates a session with a code no other session has: a code already taken is drawn
  /// again (the database's unique constraint decides, so two servers, or a server and
  /// `qna-server session create`, can never hand out the same one).
  public func createSession(
    title: String, at time: Date, using random: inout some RandomNumberGenerator
  ) async throws(StoreError) -> SessionRecord {
    for _ in 0..<Self.codeAttempts {
      let record = SessionRecord(
        code: Self.randomLetters(JoinCode.length, using: &random), title: title,
        token: Self.randomLetters(Self.tokenLength, using: &random), open: true,
        createdAt: time.timeIntervalSinceReferenceDate)
      // A room's epoch, as the first migration makes the default session's.
      let epoch = UUID()
      let created = try await run { [record] db -> SessionRecord? in
        guard try SessionRecord.filter(Column("code") == record.code).fetchCount(db) == 0
        else { return nil }
        let saved = try record.inserted(db)
        try db.execute(
          sql: "INSERT INTO roomState (session, key, value) VALUES (?, 'epoch', ?)",
          arguments: [saved.id, epoch.uuidString])
        return saved
      }
      if let created { return created }
    }
    throw .unavailable("no free join code after \(Self.codeAttempts) draws")
  }

  /// Draws before giving up: with a billion codes, even a million sessions collide rarely.
  static let codeAttempts = 32

  /// The session with this code (in any case), open or closed.
  public func session(code: String) async throws(StoreError) -> SessionRecord? {
    guard let code = JoinCode.canonical(code) else { return nil }
    return try await read { db in
      try SessionRecord.filter(Column("code") == code).fetchOne(db)
    }
  }

  /// Every session, oldest first, with its number of questions.
  public func sessions() async throws(StoreError) -> [SessionSummary] {
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

  /// Opens or closes the session with this code; `nil` if there is none.
  public func setSession(code: String, open: Bool) async throws(StoreError) -> SessionRecord? {
    guard let code = JoinCode.canonical(code) else { return nil }
    return try await run { db in
      guard var record = try SessionRecord.filter(Column("code") == code).fetchOne(db) else {
        return nil
      }
      record.open = open
      try record.update(db)
      return record
    }
  }

  /// Deletes the session with this code and everything in it: questions, votes, the
  /// presenters' history, the room's log and state, attendees' names. `nil` if there is none.
  public func deleteSession(code: String) async throws(StoreError) -> SessionRecord? {
    guard let code = JoinCode.canonical(code) else { return nil }
    return try await run { db in
      guard let record = try SessionRecord.filter(Column("code") == code).fetchOne(db),
        let id = record.id
      else { return nil }
      // Votes and transitions go with their questions (foreign keys, ON DELETE CASCADE).
      for table in ["question", "roomLog", "roomState", "attendee"] {
        try db.execute(sql: "DELETE FROM \(table) WHERE session = ?", arguments: [id])
      }
      try record.delete(db)
      return record
    }
  }

  /// Inside a write: refuses anything in a session that is gone.
  static func requireExists(_ db: Database, _ session: Int64) throws {
    guard session != SessionRecord.defaultID else { return }
    guard try SessionRecord.exists(db, key: session) else {
      throw StoreError.sessionClosed(Self.deletedMessage)
    }
  }

  /// Inside a write: refuses a new question in a session that is closed or gone.
  static func requireOpen(_ db: Database, _ session: Int64) throws {
    guard session != SessionRecord.defaultID else { return }
    guard
      let open = try Bool.fetchOne(
        db, sql: "SELECT open FROM session WHERE id = ?", arguments: [session])
    else {
      throw StoreError.sessionClosed(Self.deletedMessage)
    }
    if !open { throw StoreError.sessionClosed(Self.closedMessage) }
  }

  public static let closedMessage = "This session is closed: it takes no new questions."
  public static let deletedMessage = "This session no longer exists."
}
