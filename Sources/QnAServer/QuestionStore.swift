import Foundation
import GRDB
import QnA

/// Why the store could not do what was asked.
public enum StoreError: Error, Sendable, CustomStringConvertible {
  /// The database failed or was busy: trying again may work.
  case unavailable(String)
  /// The session is closed, or gone: no retry will change that.
  case sessionClosed(String)

  public var description: String {
    switch self {
    case .unavailable(let detail): "database error: \(detail)"
    case .sessionClosed(let reason): reason
    }
  }
}

/// The questions, in SQLite through GRDB: a file (the default `qna.sqlite`) or `:memory:`.
/// The schema is created and migrated when the store opens. A store is one session's view of
/// the database: every read and write is scoped to it (`session(_:)` gives another's).
public final class QuestionStore: Sendable {
  let database: DatabaseQueue
  /// The session this store reads and writes: 0 is the default one (`/socket`).
  public let session: Int64
  /// Where the server counts, its database latency among them.
  let metrics: ServerMetrics

  init(database: DatabaseQueue, session: Int64, metrics: ServerMetrics) {
    self.database = database
    self.session = session
    self.metrics = metrics
  }

  /// The same database, scoped to another session.
  public func session(_ id: Int64) -> QuestionStore {
    QuestionStore(database: database, session: id, metrics: metrics)
  }

  public convenience init(path: String, metrics: ServerMetrics = ServerMetrics())
    throws(StoreError)
  {
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
        }
      }
      let database =
        path == ":memory:"
        ? try DatabaseQueue(configuration: configuration)
        : try DatabaseQueue(path: path, configuration: configuration)
      try Self.migrator.migrate(database)
      self.init(database: database, session: SessionRecord.defaultID, metrics: metrics)
    } catch {
      throw .unavailable("\(path): \(error)")
    }
  }

  /// How long a write waits for a lock another process holds.
  static let busyTimeout: TimeInterval = 2

  /// Takes the write lock and gives it back: throws when the database could not store a
  /// question now, for instance while another process holds it locked past the busy timeout
  /// (`/readyz`).
  public func ping() async throws(StoreError) {
    do {
      try await database.writeWithoutTransaction { db in
        try db.inTransaction(.immediate) { .rollback }
      }
    } catch {
      throw .unavailable("\(error)")
    }
  }

  /// `PRAGMA synchronous` as the store's connection has it: 2 is FULL.
  public func synchronousLevel() async throws(StoreError) -> Int {
    try await read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
  }

  static var migrator: DatabaseMigrator {
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
        arguments: [UUID().uuidString])
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
    return migrator
  }

  /// This session's questions.
  var questions: QueryInterfaceRequest<QuestionRecord> {
    QuestionRecord.filter(Column("session") == session)
  }

  /// The question with this id, if it is this session's.
  func record(_ db: Database, _ id: UUID) throws -> QuestionRecord? {
    try questions.filter(key: id.uuidString).fetchOne(db)
  }

  /// Stores a new question; a question with the same token is not stored again: the one
  /// already there comes back instead (with `inserted` false), now asked from the sender's
  /// connection, so that its answer reaches the sender where it is now.
  public func insert(_ question: StoredQuestion) async throws(StoreError) -> (
    question: StoredQuestion, inserted: Bool
  ) {
    try await run { [session] db in
      if let token = question.token,
        var existing = try QuestionRecord.filter(Column("token") == token.uuidString)
          .fetchOne(db)
      {
        // Tokens are the asker's secret, unique in the database: one shown to another
        // session names nothing there.
        guard existing.session == session else {
          throw StoreError.sessionClosed("That token belongs to a question elsewhere.")
        }
        // Unchanged on a resend from the same connection: no write, no fsync. A question
        // an attendee asked stays that attendee's, whoever else learns its token.
        if existing.askedFrom != question.askedFrom.uuidString,
          Self.mayClaim(existing, question.attendee)
        {
          existing.askedFrom = question.askedFrom.uuidString
          try existing.update(db)
        }
        return (existing.question, false)
      }
      try Self.requireOpen(db, session)
      var record = QuestionRecord(question)
      record.session = session
      try record.insert(db)
      try Self.logChange(db, session, question.id, .added)
      return (question, true)
    }
  }

  /// The questions with these tokens, and those with these ids that `attendee` asked, now
  /// asked from `connection`: their answers go there from now on. Ids are public (the room
  /// shows them); a token, or the attendee id, is what proves a question is the sender's.
  public func reassign(ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?)
    async throws(StoreError) -> [StoredQuestion]
  {
    try await run { [questions] db in
      let byID = try questions.filter(keys: ids.map(\.uuidString)).fetchAll(db).filter {
        $0.attendee != nil && $0.attendee == attendee?.uuidString
      }
      let byToken = try questions.filter(tokens.map(\.uuidString).contains(Column("token")))
        .fetchAll(db).filter { Self.mayClaim($0, attendee) }
      var seen: Set<String> = []
      var moved: [StoredQuestion] = []
      for var record in byID + byToken where seen.insert(record.id).inserted {
        if record.askedFrom != connection.uuidString {
          record.askedFrom = connection.uuidString
          try record.update(db)
        }
        moved.append(record.question)
      }
      return moved.sorted { $0.createdAt < $1.createdAt }
    }
  }

  /// Whether `attendee` may have `record`'s answers sent to it, having shown its token: a
  /// question asked after a `join` is its attendee's only; one asked without (an existing
  /// client) is whoever's holds the token.
  static func mayClaim(_ record: QuestionRecord, _ attendee: UUID?) -> Bool {
    record.attendee == nil || record.attendee == attendee?.uuidString
  }

  /// Which of these ids the store has.
  public func existing(ids: [UUID]) async throws(StoreError) -> Set<UUID> {
    guard !ids.isEmpty else { return [] }
    return try await read { [questions] db in
      Set(
        try questions.filter(keys: ids.map(\.uuidString)).select(Column("id"), as: String.self)
          .fetchAll(db).compactMap(UUID.init(uuidString:)))
    }
  }

  /// Every question, oldest first (exports; pages use `page`).
  public func all() async throws(StoreError) -> [StoredQuestion] {
    try await read { [questions] db in
      try questions.order(Column("createdAt"), Column("rowid")).fetchAll(db).map(\.question)
    }
  }

  /// Up to `limit` questions, newest first, older than the question `before` names (an id)
  /// when given. Reads only what it returns, however many are stored.
  public func page(limit: Int, before: UUID? = nil, byVotes: Bool = false)
    async throws(StoreError) -> [StoredQuestion]
  {
    try await read { [questions, session] db in
      // The sort's keys, most significant first; the page resumes after the anchor's.
      let keys = (byVotes ? ["votes"] : []) + ["createdAt", "rowid"]
      var request = questions.order(keys.map { Column($0).desc }).limit(limit)
      if let before {
        guard
          let anchor = try Row.fetchOne(
            db,
            sql:
              "SELECT \(keys.joined(separator: ", ")) FROM question WHERE id = ? AND session = ?",
            arguments: [before.uuidString, session])
        else { return [] }
        let values = (0..<keys.count).map { anchor[$0] as DatabaseValue }
        // (a, b, c) < (x, y, z), spelled out for SQLite.
        let clauses = keys.indices.map { index in
          (keys[..<index].map { "\($0) = ?" } + ["\(keys[index]) < ?"]).joined(separator: " AND ")
        }
        let arguments = keys.indices.flatMap { index in values[...index] }
        request = request.filter(
          sql: clauses.map { "(\($0))" }.joined(separator: " OR "),
          arguments: StatementArguments(arguments))
      }
      return try request.fetchAll(db).map(\.question)
    }
  }

  /// How many questions there are, and how many are answered.
  public func counts() async throws(StoreError) -> (total: Int, answered: Int) {
    try await read { [questions] db in
      let total = try questions.fetchCount(db)
      let answered = try questions.filter(Column("answered") == true).fetchCount(db)
      return (total, answered)
    }
  }

  public func question(token: UUID) async throws(StoreError) -> StoredQuestion? {
    try await read { [questions] db in
      try questions.filter(Column("token") == token.uuidString).fetchOne(db)?.question
    }
  }

  public func question(id: UUID) async throws(StoreError) -> StoredQuestion? {
    try await read { db in try self.record(db, id)?.question }
  }

  public func count() async throws(StoreError) -> Int {
    try await read { [questions] db in try questions.fetchCount(db) }
  }

  func run<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
    async throws(StoreError) -> T
  {
    let started = ContinuousClock.now
    defer { metrics.database.record(ContinuousClock.now - started) }
    do {
      return try await database.write(body)
    } catch let error as StoreError {
      throw error
    } catch {
      throw .unavailable("\(error)")
    }
  }

  func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T)
    async throws(StoreError) -> T
  {
    let started = ContinuousClock.now
    defer { metrics.database.record(ContinuousClock.now - started) }
    do {
      return try await database.read(body)
    } catch {
      throw .unavailable("\(error)")
    }
  }
}

/// The table's row: UUIDs as upper-case text and dates as seconds since 2001, so that the
/// file reads well in `sqlite3` and keeps full precision.
struct QuestionRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "question"

  var id: String
  var content: String
  var answered: Bool
  var askedFrom: String
  var createdAt: Double
  var token: String?
  var attendee: String?
  var votes: Int
  var state: String
  var answer: String?
  var answerPrivate: Bool
  var answeredAt: Double?
  var published: Bool
  var session: Int64

  init(_ question: StoredQuestion) {
    session = SessionRecord.defaultID
    published = question.state != .review
    state = question.state.rawValue
    answer = question.answer
    answerPrivate = question.answerPrivate
    answeredAt = question.answeredAt?.timeIntervalSinceReferenceDate
    id = question.id.uuidString
    content = question.content
    answered = question.answered
    askedFrom = question.askedFrom.uuidString
    createdAt = question.createdAt.timeIntervalSinceReferenceDate
    token = question.token?.uuidString
    attendee = question.attendee?.uuidString
    votes = question.votes
  }

  var question: StoredQuestion {
    StoredQuestion(
      id: UUID(uuidString: id) ?? UUID(), content: content, answered: answered,
      askedFrom: UUID(uuidString: askedFrom) ?? UUID(),
      createdAt: Date(timeIntervalSinceReferenceDate: createdAt),
      token: token.flatMap(UUID.init(uuidString:)),
      attendee: attendee.flatMap(UUID.init(uuidString:)), votes: votes,
      state: QuestionState(rawValue: state) ?? .live, answer: answer,
      answerPrivate: answerPrivate,
      answeredAt: answeredAt.map(Date.init(timeIntervalSinceReferenceDate:)))
  }
}
