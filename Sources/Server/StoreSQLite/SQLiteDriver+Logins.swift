import Foundation
import GRDB
import QnAStore

/// Logins and wrong guesses in SQLite: one process, but the same rules as PostgreSQL's.
extension SQLiteDriver {
  package static func addLoginTables(_ db: Database) throws {
    try db.create(table: "presenterLogin") { table in
      table.column("digest", .text).primaryKey()
      table.column("scope", .integer).notNull()
      table.column("expiresAt", .double).notNull()
    }
    try db.create(
      index: "presenterLogin_scope", on: "presenterLogin", columns: ["scope", "expiresAt"])
    try db.create(table: "wrongGuess") { table in
      table.column("key", .text).primaryKey()
      table.column("failures", .integer).notNull()
      table.column("nextTurn", .double).notNull()
      table.column("lastAt", .double).notNull()
    }
    try db.create(index: "wrongGuess_lastAt", on: "wrongGuess", columns: ["lastAt"])
  }

  /// Each login remembers the token that made it (`credential`, a digest): the logins made
  /// before cannot say which, so this step ends them (their presenters log in again).
  package static func addLoginCredentials(_ db: Database) throws {
    try db.execute(sql: "DELETE FROM presenterLogin")
    // A default for an older binary still writing here: '' matches no token's digest.
    try db.alter(table: "presenterLogin") { table in
      table.add(column: "credential", .text).notNull().defaults(to: "")
    }
  }

  package func addLogin(
    digest: String, scope: Int64, credential: String, expiresAt: Double, now: Double,
    perScope: Int, total: Int
  ) async throws(StoreError) {
    try await run { db in
      try db.execute(sql: "DELETE FROM presenterLogin WHERE expiresAt <= ?", arguments: [now])
      let inScope =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM presenterLogin WHERE scope = ?", arguments: [scope])
        ?? 0
      let all = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM presenterLogin") ?? 0
      var crowded: Int64?
      if inScope >= perScope {
        crowded = scope
      } else if all >= total {
        crowded = try Int64.fetchOne(
          db,
          sql: "SELECT scope FROM presenterLogin GROUP BY scope ORDER BY COUNT(*) DESC LIMIT 1")
      }
      if let crowded {
        try db.execute(
          sql: """
            DELETE FROM presenterLogin WHERE digest = (
              SELECT digest FROM presenterLogin WHERE scope = ? ORDER BY expiresAt LIMIT 1)
            """, arguments: [crowded])
      }
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO presenterLogin (digest, scope, credential, expiresAt)
          VALUES (?, ?, ?, ?)
          """, arguments: [digest, scope, credential, expiresAt])
    }
  }

  package func login(digest: String, now: Double) async throws(StoreError) -> (
    scope: Int64, credential: String
  )? {
    try await read { db in
      guard
        let row = try Row.fetchOne(
          db,
          sql: "SELECT scope, credential FROM presenterLogin WHERE digest = ? AND expiresAt > ?",
          arguments: [digest, now])
      else { return nil }
      return (scope: row["scope"] as Int64, credential: row["credential"] as String)
    }
  }

  package func endLogin(digest: String) async throws(StoreError) {
    try await run { db in
      try db.execute(sql: "DELETE FROM presenterLogin WHERE digest = ?", arguments: [digest])
    }
  }

  package func endLogins(scope: Int64?, now: Double) async throws(StoreError) -> Int {
    try await run { db in try Self.endLogins(db, scope: scope, now: now) }
  }

  /// Inside a write: deletes the logins of `scope` (all with `nil`); how many were live.
  static func endLogins(_ db: Database, scope: Int64?, now: Double) throws -> Int {
    guard let scope else {
      let live =
        try Int.fetchOne(
          db, sql: "SELECT COUNT(*) FROM presenterLogin WHERE expiresAt > ?", arguments: [now])
        ?? 0
      try db.execute(sql: "DELETE FROM presenterLogin")
      return live
    }
    let live =
      try Int.fetchOne(
        db, sql: "SELECT COUNT(*) FROM presenterLogin WHERE scope = ? AND expiresAt > ?",
        arguments: [scope, now]) ?? 0
    try db.execute(sql: "DELETE FROM presenterLogin WHERE scope = ?", arguments: [scope])
    return live
  }

  package func rotateToken(code: String, token: String, now: Double) async throws(StoreError)
    -> (session: SessionRecord, endedLogins: Int)?
  {
    try await run { db in
      guard var record = try SessionRecord.filter(Column("code") == code).fetchOne(db),
        let id = record.id
      else { return nil }
      record.token = token
      try record.update(db)
      let ended = try Self.endLogins(db, scope: id, now: now)
      return (session: record, endedLogins: ended)
    }
  }

  package func wrongGuess(
    key: String, now: Double, forgetBefore: Double,
    spacing: @escaping @Sendable (Int) -> Double
  ) async throws(StoreError) -> Double {
    try await run { db in
      try db.execute(sql: "DELETE FROM wrongGuess WHERE lastAt < ?", arguments: [forgetBefore])
      let row = try Row.fetchOne(
        db, sql: "SELECT failures, nextTurn FROM wrongGuess WHERE key = ?", arguments: [key])
      let failures = (row?["failures"] as Int? ?? 0) + 1
      let turn = max(now, row?["nextTurn"] as Double? ?? now)
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO wrongGuess (key, failures, nextTurn, lastAt) VALUES (?, ?, ?, ?)
          """, arguments: [key, failures, turn + spacing(failures), now])
      return turn
    }
  }

  package func forgetGuesses(key: String) async throws(StoreError) {
    try await run { db in
      try db.execute(sql: "DELETE FROM wrongGuess WHERE key = ?", arguments: [key])
    }
  }
}
