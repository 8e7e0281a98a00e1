import Foundation
import QnA

/// Why the store could not do what was asked.
public enum StoreError: Error, Sendable, CustomStringConvertible {
  /// The database failed or was busy: trying again may work.
  case unavailable(String)
  /// The session is closed, or gone: no retry will change that.
  case sessionClosed(String)
  /// The request itself is refused (a label the session does not have): no retry will
  /// change that.
  case refused(String)

  public var description: String {
    switch self {
    case .unavailable(let detail): "database error: \(detail)"
    case .sessionClosed(let reason), .refused(let reason): reason
    }
  }
}

extension StoreError {
  /// Runs `body` with its errors as the store's: a `StoreError` as it is, anything else (the
  /// database library's) as `unavailable`, in `describe`'s words. Swift does not yet infer a
  /// closure's typed throws, hence the cast.
  package static func mapping<T>(
    _ describe: (any Error) -> String = { "\($0)" }, _ body: () async throws -> T
  ) async throws(StoreError) -> T {
    do {
      return try await body()
    } catch let error as StoreError {
      throw error
    } catch {
      throw .unavailable(describe(error))
    }
  }
}

/// The questions, in SQLite (a file, the default `qna.sqlite`, or `:memory:`) or PostgreSQL
/// (a `postgres://` URL, for several instances on one database): `StoreLocation` opens the
/// driver `--db` names. A store is one session's view of the database: every read and write
/// is scoped to it (`session(_:)` gives another's). Its API is split by what it holds: the
/// questions and the room here, the sessions and logins in `directory`, the word filter and
/// labels in `moderation`. Each times every call for whoever asked (`/metrics`); the
/// database work is its driver's.
public final class QuestionStore: Sendable, TimedStore {
  package let driver: any StoreDriver
  /// The session this store reads and writes: 0 is the default one (`/socket`).
  public let session: Int64
  /// Told how long each call took, its wait for the database included.
  package let timing: StoreTiming
  /// Joins' claims and votes, written together when they come together; shared by every
  /// session's view of this database.
  package let commits: StoreCommits
  /// Told of each write that changed what the room shows (a row in its log), and whether it
  /// is to go out at once: the room's fan-out (`SessionRoom`), so that no handler has to
  /// remember to. Other instances hear of it from the database.
  package let roomChanged: RoomChanged

  package typealias RoomChanged = @Sendable (_ pace: RoomPace) -> Void

  /// How soon a change goes out to the room.
  package enum RoomPace: Sendable {
    /// At once (a presenter's action).
    case now
    /// Within the broadcast window, with the changes beside it (a question, a vote).
    case window
    /// A batch of votes just committed, the commits as far apart as the room's broadcasts
    /// (`spaceVoteCommits`): within the window, the broadcast brought into step with them.
    case committed
    /// Within a second, with the changes beside it: a word cloud's results, whose screens
    /// redraw once a second, and whose every delta carries its whole top list.
    case unhurried
  }

  package init(
    driver: any StoreDriver, session: Int64 = SessionRecord.defaultID,
    timing: @escaping StoreTiming = { _ in }, commits: StoreCommits? = nil,
    roomChanged: @escaping RoomChanged = { _ in }
  ) {
    self.driver = driver
    self.session = session
    self.timing = timing
    self.commits = commits ?? StoreCommits(driver: driver)
    self.roomChanged = roomChanged
  }

  /// The same database, scoped to another session (whose room this view does not tell).
  public func session(_ id: Int64) -> QuestionStore {
    QuestionStore(driver: driver, session: id, timing: timing, commits: commits)
  }

  /// This view, telling `roomChanged` of each write that changes the room.
  package func notifying(_ roomChanged: @escaping RoomChanged) -> QuestionStore {
    QuestionStore(
      driver: driver, session: session, timing: timing, commits: commits,
      roomChanged: roomChanged)
  }

  /// Whether other instances may share this database (and tell this one what they change).
  public var isShared: Bool { driver.roomFeed != nil }
  package var health: StoreHealth? { driver.health }

  /// Migrates the schema (SQLite's was on opening).
  public func prepare() async throws(StoreError) { try await driver.prepare() }

  /// Gives back the database's connections.
  public func close() async { await driver.close() }

  /// Throws when the database could not store a question now, for instance while another
  /// process holds an SQLite file locked past the busy timeout, or PostgreSQL is down
  /// (`/readyz`).
  public func ping() async throws(StoreError) { try await timed { try await driver.ping() } }

  /// Stores a new question; a question with the same token is not stored again: the one
  /// already there comes back instead (with `inserted` false), now asked from the sender's
  /// connection, so that its answer reaches the sender where it is now.
  public func insert(_ question: StoredQuestion) async throws(StoreError) -> (
    question: StoredQuestion, inserted: Bool
  ) {
    let result = try await timed {
      try await driver.transact(
        .insert(question, session: session), writes: true, locking: session)
    }
    if result.inserted { roomChanged(.window) }
    return result
  }

  /// The questions with these tokens, and those with these ids that `attendee` asked, now
  /// asked from `connection`: their answers go there from now on. Ids are public (the room
  /// shows them); a token, or the attendee id, is what proves a question is the sender's.
  public func reassign(ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?)
    async throws(StoreError) -> [StoredQuestion]
  {
    try await timed {
      // Read first: a resume that moves nothing (a socket's second, or a flood of them) takes
      // no turn on the session's lock; one that does moves them under it, read again there.
      let seen = try await driver.fetch(
        .resumable(ids: ids, tokens: tokens, to: connection, attendee: attendee, session: session))
      guard !seen.changed.isEmpty else { return seen.questions }
      return try await driver.transact(
        .reassign(ids: ids, tokens: tokens, to: connection, attendee: attendee, session: session),
        writes: true, locking: session)
    }
  }

  /// Which of these ids the store has.
  public func existing(ids: [UUID]) async throws(StoreError) -> Set<UUID> {
    guard !ids.isEmpty else { return [] }
    return try await timed { try await driver.fetch(.existing(ids: ids, session: session)) }
  }

  /// Every question, oldest first (exports; pages use `page`).
  public func all() async throws(StoreError) -> [StoredQuestion] {
    try await timed { try await driver.fetch(.questions(QuestionSQL.all, [.integer(session)])) }
  }

  /// Up to `limit` questions, newest first, older than the question `before` names (an id)
  /// when given, with label `label` only when given. Reads only what it returns, however
  /// many are stored.
  public func page(limit: Int, before: UUID? = nil, byVotes: Bool = false, label: String? = nil)
    async throws(StoreError) -> [StoredQuestion]
  {
    try await timed {
      try await driver.fetch(
        .page(limit: limit, before: before, byVotes: byVotes, label: label, session: session))
    }
  }

  /// How many questions there are, and how many are answered.
  public func counts() async throws(StoreError) -> (total: Int, answered: Int) {
    try await timed { try await driver.fetch(.counts(session: session)) }
  }

  public func question(token: UUID) async throws(StoreError) -> StoredQuestion? {
    try await timed {
      try await driver.fetch(
        .questions(QuestionSQL.byToken, [.text(token.text), .integer(session)]))
    }.first
  }

  public func question(id: UUID) async throws(StoreError) -> StoredQuestion? {
    try await timed {
      try await driver.fetch(
        .questions(QuestionSQL.byID, [.text(id.text), .integer(session)]))
    }.first
  }

  public func count() async throws(StoreError) -> Int { try await counts().total }

  /// The sessions, and the presenters' logins and wrong guesses: the whole database's.
  public var directory: SessionDirectory { SessionDirectory(driver: driver, timing: timing) }

  /// This session's word filter and labels.
  public var moderation: ModerationStore {
    ModerationStore(driver: driver, session: session, timing: timing, roomChanged: roomChanged)
  }
}

/// A part of the store's API: each times its calls to the driver for whoever asked.
package protocol TimedStore {
  var timing: StoreTiming { get }
}

extension TimedStore {
  /// Runs one call to the driver, timed.
  package func timed<T>(_ body: () async throws -> T) async throws(StoreError) -> T {
    let started = ContinuousClock.now
    defer { timing(ContinuousClock.now - started) }
    return try await StoreError.mapping { try await body() }
  }
}

/// Told the duration of each store call (the server's database latency histogram).
public typealias StoreTiming = @Sendable (Duration) -> Void
