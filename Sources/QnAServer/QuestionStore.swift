import Foundation
import Logging
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

/// The questions, in SQLite (a file, the default `qna.sqlite`, or `:memory:`) or PostgreSQL
/// (a `postgres://` URL, for several instances on one database). A store is one session's
/// view of the database: every read and write is scoped to it (`session(_:)` gives
/// another's). It times every call for `/metrics`; the database work is its backend's.
public final class QuestionStore: Sendable {
  let backend: any StoreBackend
  /// The session this store reads and writes: 0 is the default one (`/socket`).
  public let session: Int64
  /// Where the server counts, its database latency among them.
  let metrics: ServerMetrics

  init(backend: any StoreBackend, session: Int64 = SessionRecord.defaultID, metrics: ServerMetrics)
  {
    self.backend = backend
    self.session = session
    self.metrics = metrics
  }

  /// The same database, scoped to another session.
  public func session(_ id: Int64) -> QuestionStore {
    QuestionStore(backend: backend, session: id, metrics: metrics)
  }

  /// An SQLite database, migrated.
  public convenience init(path: String, metrics: ServerMetrics = ServerMetrics())
    throws(StoreError)
  {
    self.init(backend: try SQLiteStore(path: path), metrics: metrics)
  }

  /// `--db`: a `postgres://` URL or an SQLite path. PostgreSQL's schema is migrated by
  /// `prepare()`, once its connections are up.
  public convenience init(
    location: String, metrics: ServerMetrics = ServerMetrics(),
    logger: Logger = Logger(label: "qna-store")
  ) throws(StoreError) {
    if PostgresURL.isPostgres(location) {
      self.init(
        backend: try PostgresStore(url: PostgresURL(location), logger: logger), metrics: metrics)
    } else {
      try self.init(path: location, metrics: metrics)
    }
  }

  /// Whether other instances may share this database (and tell this one what they change).
  public var isShared: Bool { backend.roomFeed != nil }

  /// Migrates the schema (SQLite's was on opening).
  public func prepare() async throws(StoreError) { try await backend.prepare() }

  /// Gives back the database's connections.
  public func close() async { await backend.close() }

  /// Throws when the database could not store a question now, for instance while another
  /// process holds an SQLite file locked past the busy timeout, or PostgreSQL is down
  /// (`/readyz`).
  public func ping() async throws(StoreError) { try await timed { try await backend.ping() } }

  /// Stores a new question; a question with the same token is not stored again: the one
  /// already there comes back instead (with `inserted` false), now asked from the sender's
  /// connection, so that its answer reaches the sender where it is now.
  public func insert(_ question: StoredQuestion) async throws(StoreError) -> (
    question: StoredQuestion, inserted: Bool
  ) {
    try await timed { try await backend.insert(question, session: session) }
  }

  /// The questions with these tokens, and those with these ids that `attendee` asked, now
  /// asked from `connection`: their answers go there from now on. Ids are public (the room
  /// shows them); a token, or the attendee id, is what proves a question is the sender's.
  public func reassign(ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?)
    async throws(StoreError) -> [StoredQuestion]
  {
    try await timed {
      try await backend.reassign(
        ids: ids, tokens: tokens, to: connection, attendee: attendee, session: session)
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
    return try await timed { try await backend.existing(ids: ids, session: session) }
  }

  /// Every question, oldest first (exports; pages use `page`).
  public func all() async throws(StoreError) -> [StoredQuestion] {
    try await timed { try await backend.all(session: session) }
  }

  /// Up to `limit` questions, newest first, older than the question `before` names (an id)
  /// when given. Reads only what it returns, however many are stored.
  public func page(limit: Int, before: UUID? = nil, byVotes: Bool = false)
    async throws(StoreError) -> [StoredQuestion]
  {
    try await timed {
      try await backend.page(limit: limit, before: before, byVotes: byVotes, session: session)
    }
  }

  /// How many questions there are, and how many are answered.
  public func counts() async throws(StoreError) -> (total: Int, answered: Int) {
    try await timed { try await backend.counts(session: session) }
  }

  public func question(token: UUID) async throws(StoreError) -> StoredQuestion? {
    try await timed { try await backend.question(token: token, session: session) }
  }

  public func question(id: UUID) async throws(StoreError) -> StoredQuestion? {
    try await timed { try await backend.question(id: id, session: session) }
  }

  public func count() async throws(StoreError) -> Int { try await counts().total }

  /// Runs one call to the backend, timed. Backends throw only `StoreError`; Swift does not
  /// yet infer a closure's typed throws, hence the cast.
  func timed<T>(_ body: () async throws -> T) async throws(StoreError) -> T {
    let started = ContinuousClock.now
    defer { metrics.database.record(ContinuousClock.now - started) }
    do {
      return try await body()
    } catch let error as StoreError {
      throw error
    } catch {
      throw .unavailable("\(error)")
    }
  }
}
