import Foundation
import Logging
import NIOSSL
import PostgresNIO
import QnA
import QnAStore

/// The store in PostgreSQL, for several instances on one database. Every write is one
/// transaction that first takes its session's advisory lock, so that a session's writes,
/// from any instance, happen one after another: a token is deduplicated, a vote counted and
/// an action done exactly once, and the room's log numbers commit in order (a reader never
/// sees number 11 before 10 has committed). Each logged change is announced on the
/// `qna_room` channel when it commits (`RoomNotice`).
package final class PostgresDriver: StoreDriver {
  package let client: PostgresClient
  package let logger: Logger
  /// This process, as its notices name it.
  package let instance: UUID
  private let runner: Task<Void, Never>
  package let roomFeed: RoomFeed?

  package static let channel = "qna_room"

  package init(url: PostgresURL, logger: Logger, instance: UUID = UUID()) throws(StoreError) {
    var configuration = PostgresClient.Configuration(
      host: url.host, port: url.port, username: url.user,
      // As libpq does: a password kept out of the command line (and `ps`) in the environment.
      password: url.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"],
      database: url.database, tls: Self.tls(url.tls))
    configuration.options.connectTimeout = Self.connectTimeout
    if let warning = url.tlsWarning { logger.warning("\(warning)") }
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    self.client = client
    self.logger = logger
    self.instance = instance
    runner = Task { await client.run() }
    roomFeed = RoomFeed { [client, logger, instance] continuation in
      Task {
        await Self.listen(client: client, instance: instance, logger: logger, into: continuation)
      }
    }
  }

  /// How often the listening connection proves it is alive.
  package static let heartbeatInterval: Duration = .seconds(15)

  /// How long a connection may take: `/readyz` and a store call fail after it.
  package static let connectTimeout: Duration = .seconds(3)

  /// libpq's meaning: `prefer` and `require` encrypt without checking the certificate.
  package static func tls(_ mode: PostgresURL.TLSMode) -> PostgresClient.Configuration.TLS {
    var unchecked = TLSConfiguration.makeClientConfiguration()
    unchecked.certificateVerification = .none
    switch mode {
    case .disable: return .disable
    case .prefer: return .prefer(unchecked)
    case .require: return .require(unchecked)
    case .verify: return .require(.makeClientConfiguration())
    }
  }

  package func prepare() async throws(StoreError) {
    try await transaction(locking: nil) { [logger] connection in
      try await PostgresSchema.migrate(connection, logger: logger)
    }
  }

  package func close() async {
    roomFeed?.finish()
    runner.cancel()
  }

  package func ping() async throws(StoreError) {
    _ = try await transaction(locking: nil) { [logger] connection in
      try await connection.query("SELECT 1", logger: logger)
    }
  }

  /// Listens on the channel for as long as the store is open, connecting again after a
  /// failure; every (re)connection is a `resync`, as notices may have gone by meanwhile.
  package static func listen(
    client: PostgresClient, instance: UUID, logger: Logger,
    into continuation: AsyncStream<RoomFeedEvent>.Continuation
  ) async {
    var delay = Duration.milliseconds(100)
    while !Task.isCancelled {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: channel) { notifications in
            continuation.yield(.resync)
            delay = .milliseconds(100)
            // A half-open connection (a host gone, a NAT that forgot it) never errors by
            // itself: a query now and then finds out, and closing it ends the loop below.
            let heartbeat = Task {
              while !Task.isCancelled {
                try? await Task.sleep(for: heartbeatInterval)
                guard !Task.isCancelled else { return }
                do {
                  _ = try await Deadline.run(within: .seconds(5)) {
                    try await connection.query("SELECT 1", logger: logger)
                  }
                } catch {
                  logger.warning("the listening connection did not answer: reconnecting")
                  try? await connection.close()
                  return
                }
              }
            }
            defer { heartbeat.cancel() }
            for try await notification in notifications {
              guard let notice = RoomNotice(payload: notification.payload) else {
                logger.warning("unreadable notice on \(channel): resyncing")
                continuation.yield(.resync)
                continue
              }
              continuation.yield(.changed(notice, own: notice.origin == instance))
            }
          }
        }
      } catch {
        if Task.isCancelled { return }
        logger.warning("listening for other instances' changes: \(describe(error))")
      }
      try? await Task.sleep(for: delay)
      delay = min(delay * 2, .seconds(5))
    }
  }

  /// Runs `body` in a transaction; with a session, after taking that session's lock. A
  /// read-only one sees one snapshot throughout (`REPEATABLE READ`).
  package func transaction<T: Sendable>(
    locking session: Int64?, readOnly: Bool = false,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws(StoreError) -> T {
    let logger = self.logger
    let client = self.client
    let describe: (any Error) -> String = { error in
      error is Deadline.Passed
        ? "PostgreSQL did not answer within \(Self.callLimit)" : Self.describe(error)
    }
    return try await StoreError.mapping(describe) {
      try await Deadline.run(within: Self.callLimit) {
        try await Self.transaction(client, locking: session, readOnly: readOnly, logger, body)
      }
    }
  }

  /// The longest a store call may take before it fails (and its client tries again, under
  /// its token). Across a PostgreSQL restart, the chaos test saw a call never return, and
  /// its request wait for nginx's 150 s timeout. The abandoned call keeps its pooled
  /// connection until it ends on its own.
  package static let callLimit: Duration = .seconds(10)
  /// `statement_timeout` inside each transaction, in milliseconds: a lock wait or a query
  /// past it fails on the server, before the caller's limit.
  package static let serverLimit = "8000"

  private static func transaction<T: Sendable>(
    _ client: PostgresClient, locking session: Int64?, readOnly: Bool, _ logger: Logger,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    try await client.withConnection { connection in
      try await connection.query(
        readOnly
          ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
          : "BEGIN ISOLATION LEVEL READ COMMITTED", logger: logger)
      // PostgreSQL gives up on its own before the caller does, and lets go of the lock.
      try await connection.query(
        "SET LOCAL statement_timeout = \(unescaped: serverLimit)", logger: logger)
      do {
        if let session {
          try await connection.query("SELECT pg_advisory_xact_lock(\(session))", logger: logger)
        }
        let value = try await body(connection)
        try await connection.query("COMMIT", logger: logger)
        return value
      } catch {
        _ = try? await connection.query("ROLLBACK", logger: logger)
        throw error
      }
    }
  }

  package func write<T: Sendable>(
    _ session: Int64, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws(StoreError) -> T {
    try await transaction(locking: session, body)
  }

  package func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
    async throws(StoreError) -> T
  {
    try await transaction(locking: nil, readOnly: true, body)
  }

  /// PostgreSQL's own message where there is one (postgres-nio's description hides it).
  package static func describe(_ error: any Error) -> String {
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] { return "PostgreSQL: \(message)" }
      return "PostgreSQL: \(error.code)"
    }
    return "\(error)"
  }

  /// A question's columns, in the order `records` reads them.
  package static let columns = """
    id, content, answered, askedFrom, createdAt, token, attendee, votes, state, answer,
    answerPrivate, answeredAt, published, session
    """
  /// What reads select: the columns, and the row's number (a question's `n` in the room).
  package static let selected = columns + ", rowid"

  package static func records(_ rows: PostgresRowSequence) async throws -> [QuestionRecord] {
    var records: [QuestionRecord] = []
    for try await row in rows {
      let (
        id, content, answered, askedFrom, createdAt, token, attendee, votes, state, answer,
        answerPrivate, answeredAt, published, session, rowid
      ) = try row.decode(
        (
          String, String, Bool, String, Double, String?, String?, Int, String, String?, Bool,
          Double?, Bool, Int64, Int64
        ).self)
      records.append(
        QuestionRecord(
          id: id, content: content, answered: answered, askedFrom: askedFrom,
          createdAt: createdAt, token: token, attendee: attendee, votes: votes, state: state,
          answer: answer, answerPrivate: answerPrivate, answeredAt: answeredAt,
          published: published, session: session, rowid: rowid))
    }
    return records
  }

  package static func record(
    _ connection: PostgresConnection, _ id: UUID, _ session: Int64, logger: Logger
  )
    async throws -> QuestionRecord?
  {
    try await records(
      connection.query(
        "SELECT \(unescaped: selected) FROM question WHERE id = \(id.uuidString) AND session = \(session)",
        logger: logger)
    ).first
  }

  package static func save(
    _ record: QuestionRecord, _ connection: PostgresConnection, logger: Logger
  )
    async throws
  {
    try await connection.query(
      """
      UPDATE question SET content = \(record.content), answered = \(record.answered),
        askedFrom = \(record.askedFrom), token = \(record.token), attendee = \(record.attendee),
        votes = \(record.votes), state = \(record.state), answer = \(record.answer),
        answerPrivate = \(record.answerPrivate), answeredAt = \(record.answeredAt),
        published = \(record.published)
      WHERE id = \(record.id)
      """, logger: logger)
  }

  package static func insert(
    _ record: QuestionRecord, _ connection: PostgresConnection, logger: Logger
  )
    async throws
  {
    try await connection.query(
      """
      INSERT INTO question (\(unescaped: columns)) VALUES (
        \(record.id), \(record.content), \(record.answered), \(record.askedFrom),
        \(record.createdAt), \(record.token), \(record.attendee), \(record.votes),
        \(record.state), \(record.answer), \(record.answerPrivate), \(record.answeredAt),
        \(record.published), \(record.session))
      """, logger: logger)
  }

  /// Appends to the room's log and announces it at commit; returns its sequence number.
  @discardableResult
  package func logChange(
    _ connection: PostgresConnection, _ session: Int64, _ question: UUID?, _ kind: RoomChange
  ) async throws -> Int {
    let rows = try await connection.query(
      """
      INSERT INTO roomLog (session, question, kind)
      VALUES (\(session), \(question?.uuidString), \(kind.rawValue)) RETURNING seq
      """, logger: logger)
    var seq = 0
    for try await value in rows.decode(Int.self) { seq = value }
    try await announce(connection, session, question, kind)
    return seq
  }

  /// Tells every instance listening, when the transaction commits (never if it does not).
  package func announce(
    _ connection: PostgresConnection, _ session: Int64, _ question: UUID?, _ kind: RoomChange
  ) async throws {
    let notice = RoomNotice(origin: instance, session: session, kind: kind, question: question)
    try await connection.query(
      "SELECT pg_notify(\(Self.channel), \(notice.payload))", logger: logger)
  }

  package static func int(_ rows: PostgresRowSequence) async throws -> Int? {
    for try await value in rows.decode(Int?.self) { return value }
    return nil
  }
}
