import Foundation

/// Presenters' logins and wrong guesses, written once for both databases: the statements,
/// and the flows that run them (`SessionDirectory+Logins`).
package enum LoginSQL {
  /// $1 now.
  package static let expire: PortableSQL = "DELETE FROM presenterLogin WHERE expiresAt <= $1"
  /// $1 scope.
  package static let countInScope: PortableSQL =
    "SELECT COUNT(*) FROM presenterLogin WHERE scope = $1"
  package static let countAll: PortableSQL = "SELECT COUNT(*) FROM presenterLogin"
  package static let fullestScope: PortableSQL =
    "SELECT scope FROM presenterLogin GROUP BY scope ORDER BY COUNT(*) DESC LIMIT 1"
  /// $1 scope: its login that expires first.
  package static let endOldest: PortableSQL = """
    DELETE FROM presenterLogin WHERE digest = (
      SELECT digest FROM presenterLogin WHERE scope = $1 ORDER BY expiresAt LIMIT 1)
    """
  /// $1 digest, $2 scope, $3 credential, $4 expiresAt.
  package static let add: PortableSQL = """
    INSERT INTO presenterLogin (digest, scope, credential, expiresAt) VALUES ($1, $2, $3, $4)
    ON CONFLICT (digest) DO UPDATE SET scope = excluded.scope,
      credential = excluded.credential, expiresAt = excluded.expiresAt
    """
  /// $1 digest, $2 now.
  package static let live: PortableSQL =
    "SELECT scope, credential FROM presenterLogin WHERE digest = $1 AND expiresAt > $2"
  /// $1 digest.
  package static let end: PortableSQL = "DELETE FROM presenterLogin WHERE digest = $1"
  /// Every login, ended: their expiries, to count those that were live.
  package static let endAll: PortableSQL = "DELETE FROM presenterLogin RETURNING expiresAt"
  /// $1 scope: its logins, ended, as `endAll`.
  package static let endInScope: PortableSQL =
    "DELETE FROM presenterLogin WHERE scope = $1 RETURNING expiresAt"

  /// $1 forget before.
  package static let forgetOldGuesses: PortableSQL = "DELETE FROM wrongGuess WHERE lastAt < $1"
  /// $1 key, $2 now: the key's row first, so that two instances counting the same key at
  /// once queue on it.
  package static let claimGuess: PortableSQL = """
    INSERT INTO wrongGuess (key, failures, nextTurn, lastAt) VALUES ($1, 0, $2, $2)
    ON CONFLICT (key) DO NOTHING
    """
  /// $1 key.
  package static let guess: PortableSQL =
    "SELECT failures, nextTurn FROM wrongGuess WHERE key = $1 FOR UPDATE"
  /// $1 failures, $2 next turn, $3 now, $4 key.
  package static let countGuess: PortableSQL =
    "UPDATE wrongGuess SET failures = $1, nextTurn = $2, lastAt = $3 WHERE key = $4"
  /// $1 key.
  package static let forgetGuesses: PortableSQL = "DELETE FROM wrongGuess WHERE key = $1"
}

extension TransactionFlow where Output == Void {
  /// A login, after the expired ones go and, past either cap, the oldest of the scope that
  /// is full (or that holds the most).
  package static func addLogin(
    digest: String, scope: Int64, credential: String, expiresAt: Double, now: Double,
    perScope: Int, total: Int
  ) -> TransactionFlow {
    let add = TransactionFlow.run(
      LoginSQL.add, [.text(digest), .integer(scope), .text(credential), .real(expiresAt)],
      then: .done(()))
    let endOldest: @Sendable (Int64?) -> TransactionFlow = { crowded in
      guard let crowded else { return add }
      return .run(LoginSQL.endOldest, [.integer(crowded)], then: add)
    }
    return .lock(
      .logins,
      then: .run(
        LoginSQL.expire, [.real(now)],
        then: .rows(LoginSQL.countInScope, [.integer(scope)]) { inScope in
          if (inScope.first?.int(0) ?? 0) >= perScope { return endOldest(scope) }
          return .rows(LoginSQL.countAll, []) { all in
            guard (all.first?.int(0) ?? 0) >= total else { return endOldest(nil) }
            return .rows(LoginSQL.fullestScope, []) { fullest in
              endOldest(fullest.first?.integer(0))
            }
          }
        }))
  }
}

extension TransactionFlow where Output == Int {
  /// Ends the logins of `scope` (all with `nil`); how many were live at `now`, counted from
  /// the rows the deletion itself returns (a login made meanwhile is ended and counted).
  package static func endLogins(scope: Int64?, now: Double) -> TransactionFlow {
    let ended: @Sendable ([SQLRow]) -> TransactionFlow = { rows in
      .done(rows.filter { ($0.real(0) ?? 0) > now }.count)
    }
    guard let scope else { return .rows(LoginSQL.endAll, [], then: ended) }
    return .rows(LoginSQL.endInScope, [.integer(scope)], then: ended)
  }
}

extension TransactionFlow where Output == Double {
  /// Counts a wrong guess under `key`, and gives its turn.
  package static func wrongGuess(
    key: String, now: Double, forgetBefore: Double,
    spacing: @escaping @Sendable (Int) -> Double
  ) -> TransactionFlow {
    .runAll(
      [
        (LoginSQL.forgetOldGuesses, [.real(forgetBefore)]),
        (LoginSQL.claimGuess, [.text(key), .real(now)]),
      ],
      then: .rows(LoginSQL.guess, [.text(key)]) { rows in
        let failures = (rows.first?.int(0) ?? 0) + 1
        let turn = max(now, rows.first?.real(1) ?? now)
        return .run(
          LoginSQL.countGuess,
          [.integer(Int64(failures)), .real(turn + spacing(failures)), .real(now), .text(key)],
          then: .done(turn))
      })
  }
}
