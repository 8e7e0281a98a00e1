import Foundation
import PostgresNIO
import QnAStore

/// Logins and wrong guesses in PostgreSQL, where every instance reads the same rows: a login
/// made on one opens all of them, and an address's wrong guesses count once across them.
extension PostgresDriver {
  /// The lock that makes a scope's cap hold when two instances log presenters in at once.
  static let loginLock: (Int32, Int32) = (0x716E_6C, 1)

  package func addLogin(
    digest: String, scope: Int64, credential: String, expiresAt: Double, now: Double,
    perScope: Int, total: Int
  ) async throws(StoreError) {
    try await transaction(locking: nil) { [logger] connection in
      try await connection.query(
        "SELECT pg_advisory_xact_lock(\(Self.loginLock.0), \(Self.loginLock.1))", logger: logger)
      try await connection.query(
        "DELETE FROM presenterLogin WHERE expiresAt <= \(now)", logger: logger)
      let inScope =
        try await Self.int(
          connection.query(
            "SELECT COUNT(*)::bigint FROM presenterLogin WHERE scope = \(scope)", logger: logger))
        ?? 0
      let all =
        try await Self.int(
          connection.query("SELECT COUNT(*)::bigint FROM presenterLogin", logger: logger)) ?? 0
      var crowded: Int64?
      if inScope >= perScope {
        crowded = scope
      } else if all >= total {
        for try await fullest in try await connection.query(
          "SELECT scope FROM presenterLogin GROUP BY scope ORDER BY COUNT(*) DESC LIMIT 1",
          logger: logger
        ).decode(Int64.self) {
          crowded = fullest
        }
      }
      if let crowded {
        try await connection.query(
          """
          DELETE FROM presenterLogin WHERE digest = (
            SELECT digest FROM presenterLogin WHERE scope = \(crowded) ORDER BY expiresAt LIMIT 1)
          """, logger: logger)
      }
      try await connection.query(
        """
        INSERT INTO presenterLogin (digest, scope, credential, expiresAt)
        VALUES (\(digest), \(scope), \(credential), \(expiresAt))
        ON CONFLICT (digest) DO UPDATE SET scope = EXCLUDED.scope,
          credential = EXCLUDED.credential, expiresAt = EXCLUDED.expiresAt
        """, logger: logger)
    }
  }

  package func login(digest: String, now: Double) async throws(StoreError) -> (
    scope: Int64, credential: String
  )? {
    try await read { [logger] connection in
      for try await (scope, credential) in try await connection.query(
        """
        SELECT scope, credential FROM presenterLogin
        WHERE digest = \(digest) AND expiresAt > \(now)
        """, logger: logger
      ).decode((Int64, String).self) {
        return (scope: scope, credential: credential)
      }
      return nil
    }
  }

  package func endLogin(digest: String) async throws(StoreError) {
    try await transaction(locking: nil) { [logger] connection in
      try await connection.query(
        "DELETE FROM presenterLogin WHERE digest = \(digest)", logger: logger)
    }
  }

  package func endLogins(scope: Int64?, now: Double) async throws(StoreError) -> Int {
    try await transaction(locking: nil) { [logger] connection in
      try await Self.endLogins(connection, scope: scope, now: now, logger: logger)
    }
  }

  /// Inside a transaction: deletes the logins of `scope` (all with `nil`); how many were live.
  static func endLogins(
    _ connection: PostgresConnection, scope: Int64?, now: Double, logger: Logger
  ) async throws -> Int {
    var query: PostgresQuery = """
      WITH ended AS (DELETE FROM presenterLogin RETURNING expiresAt)
      SELECT COUNT(*)::bigint FROM ended WHERE expiresAt > \(now)
      """
    if let scope {
      query = """
        WITH ended AS (DELETE FROM presenterLogin WHERE scope = \(scope) RETURNING expiresAt)
        SELECT COUNT(*)::bigint FROM ended WHERE expiresAt > \(now)
        """
    }
    return try await Self.int(connection.query(query, logger: logger)) ?? 0
  }

  package func rotateToken(code: String, token: String, now: Double) async throws(StoreError)
    -> (session: SessionRecord, endedLogins: Int)?
  {
    try await transaction(locking: nil) { [logger] connection in
      // The row's lock orders it with a close or another rotation of the same session.
      let record = try await Self.sessions(
        connection.query(
          """
          UPDATE session SET token = \(token) WHERE code = \(code)
          RETURNING \(unescaped: Self.sessionColumns)
          """, logger: logger)
      ).first
      guard let record, let id = record.id else { return nil }
      let ended = try await Self.endLogins(connection, scope: id, now: now, logger: logger)
      // Other instances re-read the session, and close its presenters' sockets there.
      try await self.announce(connection, id, nil, .session)
      return (session: record, endedLogins: ended)
    }
  }

  package func wrongGuess(
    key: String, now: Double, forgetBefore: Double,
    spacing: @escaping @Sendable (Int) -> Double
  ) async throws(StoreError) -> Double {
    try await transaction(locking: nil) { [logger] connection in
      try await connection.query(
        "DELETE FROM wrongGuess WHERE lastAt < \(forgetBefore)", logger: logger)
      // The row first, so that two instances counting the same key at once queue on it.
      try await connection.query(
        """
        INSERT INTO wrongGuess (key, failures, nextTurn, lastAt) VALUES (\(key), 0, \(now), \(now))
        ON CONFLICT (key) DO NOTHING
        """, logger: logger)
      var failures = 1
      var turn = now
      for try await (counted, next) in try await connection.query(
        "SELECT failures, nextTurn FROM wrongGuess WHERE key = \(key) FOR UPDATE",
        logger: logger
      ).decode((Int, Double).self) {
        failures = counted + 1
        turn = max(now, next)
      }
      try await connection.query(
        """
        UPDATE wrongGuess SET failures = \(failures), nextTurn = \(turn + spacing(failures)),
          lastAt = \(now) WHERE key = \(key)
        """, logger: logger)
      return turn
    }
  }

  package func forgetGuesses(key: String) async throws(StoreError) {
    try await transaction(locking: nil) { [logger] connection in
      try await connection.query("DELETE FROM wrongGuess WHERE key = \(key)", logger: logger)
    }
  }
}
