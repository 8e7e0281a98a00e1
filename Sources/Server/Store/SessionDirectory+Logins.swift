import Foundation

/// Presenters' logins and wrong guesses, kept in the database so that every instance on it
/// sees the same: a login made through one instance opens the others, a logout or an
/// expiry holds on all, and wrong guesses from one address take turns across all of them.
/// Logins are stored under a digest of their id (`PresenterLogins`), never the id itself,
/// with a digest of the token that made them, never the token.
extension SessionDirectory {
  /// What a login admits to: every session (the admin's), or one.
  public enum LoginScope: Sendable, Hashable {
    case admin
    case session(Int64)

    /// As the table keeps it: -1 for the admin's, else the session's id.
    package var stored: Int64 {
      switch self {
      case .admin: -1
      case .session(let id): id
      }
    }

    package init(stored: Int64) { self = stored < 0 ? .admin : .session(stored) }
  }

  /// The most live logins one scope keeps, and all of them: past either, the oldest of the
  /// scope that is full (or that holds the most) goes, so that nobody logging in again and
  /// again logs out another session's presenters.
  public struct LoginLimits: Sendable {
    public var perScope = 100
    public var total = 10_000
    public init() {}
  }

  /// A live login as stored: what it admits to, and the digest of the token that made it
  /// (`PresenterLogins` makes and checks it; the store only keeps it).
  public struct StoredLogin: Sendable, Hashable {
    public var scope: LoginScope
    public var credential: String
  }

  public func addLogin(
    digest: String, scope: LoginScope, credential: String, expiresAt: Date, now: Date,
    limits: LoginLimits
  ) async throws(StoreError) {
    try await timed {
      try await driver.perform(
        .addLogin(
          digest: digest, scope: scope.stored, credential: credential,
          expiresAt: expiresAt.timeIntervalSince1970, now: now.timeIntervalSince1970,
          perScope: limits.perScope, total: limits.total))
    }
  }

  /// The live login with this digest; `nil` when there is none (or it expired).
  public func login(digest: String, now: Date) async throws(StoreError) -> StoredLogin? {
    let flow = TransactionFlow.rows(
      LoginSQL.live, [.text(digest), .real(now.timeIntervalSince1970)]
    ) { rows in
      .done(
        rows.first.flatMap { row in
          row.integer(0).flatMap { scope in
            row.text(1).map { StoredLogin(scope: LoginScope(stored: scope), credential: $0) }
          }
        })
    }
    return try await timed { try await driver.fetch(flow) }
  }

  public func endLogin(digest: String) async throws(StoreError) {
    try await timed {
      try await driver.perform(.run(LoginSQL.end, [.text(digest)], then: .done(())))
    }
  }

  /// Logs out everywhere: ends every login of `scope`, or every login of every scope
  /// (`nil`), on every instance on the database. Returns how many were live at `now`.
  @discardableResult
  public func endLogins(scope: LoginScope?, now: Date) async throws(StoreError) -> Int {
    try await timed {
      try await driver.perform(.endLogins(scope: scope?.stored, now: now.timeIntervalSince1970))
    }
  }

  /// Counts one wrong guess under `key` and gives its turn: the time its answer is due, by
  /// the database's record of this key across every instance. `spacing` says how long the
  /// turns after `failures` wrong guesses are apart. A key quiet for `forgetAfter` starts
  /// again from nothing.
  public func wrongGuess(
    key: String, now: Date, forgetAfter: Duration,
    spacing: @escaping @Sendable (_ failures: Int) -> Duration
  ) async throws(StoreError) -> Date {
    let now = now.timeIntervalSince1970
    let turn = try await timed {
      try await driver.perform(
        .wrongGuess(key: key, now: now, forgetBefore: now - forgetAfter / .seconds(1)) {
          failures in spacing(failures) / .seconds(1)
        })
    }
    return Date(timeIntervalSince1970: turn)
  }

  /// The right secret came from `key`: its wrong guesses are forgotten.
  public func forgetGuesses(key: String) async throws(StoreError) {
    try await timed {
      try await driver.perform(.run(LoginSQL.forgetGuesses, [.text(key)], then: .done(())))
    }
  }
}
