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
  package let pool: ConnectionPool
  package let logger: Logger
  /// This process, as its notices name it.
  package let instance: UUID
  package let roomFeed: RoomFeed?
  package let health: StoreHealth?
  /// The longest a store call may take (`--db-call-limit`).
  package let callLimit: Duration

  package static let channel = "qna_room"

  package init(
    url: PostgresURL, options: StoreOptions = StoreOptions(), logger: Logger,
    instance: UUID = UUID()
  ) throws(StoreError) {
    // As libpq does: a password kept out of the command line (and `ps`) in the environment.
    let password = url.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
    let tls = try Self.tls(url.tls)
    let hosts = url.endpoints.map { endpoint in
      var configuration = PostgresConnection.Configuration(
        host: endpoint.host, port: endpoint.port, username: url.user, password: password,
        database: url.database, tls: tls)
      configuration.options.connectTimeout = TimeAmount(Self.connectTimeout)
      return configuration
    }
    if let warning = url.tlsWarning { logger.warning("\(warning)") }
    let pool = ConnectionPool(size: options.poolSize) { [target = url.target, logger] in
      try await HostList(hosts: hosts, target: target, logger: logger).connect()
    }
    let health = StoreHealth(
      poolSize: options.poolSize, usage: { pool.usage }, noticeLag: options.noticeLag)
    self.pool = pool
    self.logger = logger
    self.instance = instance
    self.health = health
    callLimit = options.callLimit
    roomFeed = RoomFeed { [pool, logger, instance] continuation in
      Task {
        await Self.listen(
          pool: pool, instance: instance, health: health, logger: logger, into: continuation)
      }
    }
  }

  /// How long a connection may take: `/readyz` and a store call fail after it.
  package static let connectTimeout: Duration = .seconds(3)

  /// libpq's meaning: `prefer` and `require` encrypt without checking the certificate.
  package static func tls(_ mode: PostgresURL.TLSMode) throws(StoreError)
    -> PostgresConnection.Configuration.TLS
  {
    var unchecked = TLSConfiguration.makeClientConfiguration()
    unchecked.certificateVerification = .none
    do {
      switch mode {
      case .disable: return .disable
      case .prefer: return .prefer(try NIOSSLContext(configuration: unchecked))
      case .require: return .require(try NIOSSLContext(configuration: unchecked))
      case .verify: return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
      }
    } catch {
      throw .unavailable("TLS could not be set up: \(error)")
    }
  }

  package func prepare() async throws(StoreError) {
    try await transaction(locking: nil) { [logger] connection in
      try await PostgresSchema.migrate(connection, logger: logger)
    }
  }

  package func close() async {
    roomFeed?.finish()
    pool.close()
  }

  package func ping() async throws(StoreError) {
    _ = try await transaction(locking: nil) { [logger] connection in
      try await connection.query("SELECT 1", logger: logger)
    }
  }

  /// Runs `body` in a transaction; with a session, after taking that session's lock. A
  /// read-only one sees one snapshot throughout (`REPEATABLE READ`).
  ///
  /// The call gives up at `callLimit`: its connection is closed and its slot in the pool
  /// freed at once. postgres-nio's query waits for its answer with no time limit and does
  /// not end when its task is cancelled; on a link that stops carrying bytes (a stall, a peer
  /// gone without a FIN), or one that broke as the query was sent, the call would keep its
  /// connection for ever, and a few such calls starve the pool (`ConnectionPool`).
  package func transaction<T: Sendable>(
    locking session: Int64?, readOnly: Bool = false,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws(StoreError) -> T {
    let logger = self.logger
    let limit = callLimit
    let describe: (any Error) -> String = { error in
      error is Deadline.Passed
        ? "PostgreSQL did not answer within \(limit)" : Self.describe(error)
    }
    let lease = PooledCall(pool: pool, health: health)
    let serverLimit = Self.serverLimit(limit)
    return try await StoreError.mapping(describe) {
      try await Deadline.run(
        within: limit,
        onExpiry: {
          logger.warning("a database call passed its limit of \(limit): closing its connection")
          lease.abandon()
        },
        // A connection that breaks under a call ends it now, not at its limit: its query
        // might wait for ever.
        endEarly: lease.whenLost
      ) {
        try await lease.run { connection in
          try await Self.transaction(
            connection, locking: session, readOnly: readOnly, serverLimit: serverLimit, logger,
            body)
        }
      }
    }
  }

  /// `statement_timeout` inside each transaction, in milliseconds: four fifths of the call's
  /// limit, so that a lock wait or a query past it fails on the server (and lets go of the
  /// lock) before the caller gives up.
  package static func serverLimit(_ callLimit: Duration) -> Int64 {
    let (seconds, attoseconds) = callLimit.components
    return max(100, (seconds * 1000 + attoseconds / 1_000_000_000_000_000) * 4 / 5)
  }

  /// The namespace of the sessions' advisory locks (`qns`), apart from another application's
  /// on the same database and from the migration's (`PostgresSchema.migrationLock`). The
  /// second key is the session's id; ids past 2³¹ share locks with smaller ones, which only
  /// makes two sessions' writes take turns.
  package static let sessionLockSpace: Int32 = 0x716E_73

  private static func transaction<T: Sendable>(
    _ connection: PostgresConnection, locking session: Int64?, readOnly: Bool,
    serverLimit: Int64, _ logger: Logger,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws -> T {
    do {
      try await connection.query(
        readOnly
          ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
          : "BEGIN ISOLATION LEVEL READ COMMITTED", logger: logger)
      // PostgreSQL gives up on its own before the caller does, and lets go of the lock: a
      // statement past the limit fails, and so does a transaction left idle as long (its
      // caller gave up and closed a connection whose FIN never arrived: a half-open link
      // would otherwise hold the session's lock, and stop its every write, for good).
      let limit = String(serverLimit)
      try await connection.query(
        """
        SELECT set_config('statement_timeout', \(limit), true),
          set_config('idle_in_transaction_session_timeout', \(limit), true)
        """, logger: logger)
      if let session {
        let key = Int32(truncatingIfNeeded: session)
        try await connection.query(
          "SELECT pg_advisory_xact_lock(\(sessionLockSpace), \(key))", logger: logger)
      }
      let value = try await body(connection)
      try await connection.query("COMMIT", logger: logger)
      return value
    } catch {
      _ = try? await connection.query("ROLLBACK", logger: logger)
      throw error
    }
  }

  /// PostgreSQL's own message where there is one (postgres-nio's description hides it).
  package static func describe(_ error: any Error) -> String {
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] { return "PostgreSQL: \(message)" }
      return "PostgreSQL: \(error.code)"
    }
    return "\(error)"
  }

  /// Tells every instance listening, when the transaction commits (never if it does not).
  package func announce(
    _ connection: PostgresConnection, _ session: Int64, _ question: UUID?, _ kind: RoomChange
  ) async throws {
    let notice = RoomNotice(
      origin: instance, session: session, kind: kind, question: question,
      sentAt: Int64(Date().timeIntervalSince1970 * 1000))
    try await connection.query(
      "SELECT pg_notify(\(Self.channel), \(notice.payload))", logger: logger)
  }
}
