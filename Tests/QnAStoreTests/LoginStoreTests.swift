import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Presenters' logins on both databases, as two instances see them: each keeps the digest of
/// the token that made it, and ends by scope, all at once, or with its session's token.
@Suite("Store: logins")
struct LoginStoreTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func add(
    _ store: QuestionStore, _ digest: String, _ scope: SessionDirectory.LoginScope,
    credential: String = "made-with", lifetime: TimeInterval = 3600
  ) async throws {
    try await store.directory.addLogin(
      digest: digest, scope: scope, credential: credential,
      expiresAt: now.addingTimeInterval(lifetime), now: now, limits: SessionDirectory.LoginLimits())
  }

  @Test(arguments: StoreKind.allCases)
  func aLoginKeepsItsTokensDigestAndEndsByScopeOrAll(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    try await Self.add(stores[0], "admin-login", .admin, credential: "by-admin")
    try await Self.add(stores[0], "talk-login", .session(1), credential: "by-talk")
    try await Self.add(stores[0], "talk-login-2", .session(1))
    try await Self.add(stores[0], "other-login", .session(2))
    try await Self.add(stores[0], "stale-login", .session(1), lifetime: -1)
    // Another instance reads the same.
    let admin = try await stores[1].directory.login(digest: "admin-login", now: Self.now)
    #expect(admin?.scope == .admin && admin?.credential == "by-admin")
    let talk = try await stores[1].directory.login(digest: "talk-login", now: Self.now)
    #expect(talk?.scope == .session(1) && talk?.credential == "by-talk")
    #expect(
      try await stores[1].directory.login(digest: "stale-login", now: Self.now) == nil, "expired")

    // One session's logins end (the live ones counted); the others stay.
    #expect(try await stores[1].directory.endLogins(scope: .session(1), now: Self.now) == 2)
    for gone in ["talk-login", "talk-login-2"] {
      #expect(try await stores[0].directory.login(digest: gone, now: Self.now) == nil, "\(gone)")
    }
    #expect(try await stores[0].directory.login(digest: "other-login", now: Self.now) != nil)
    // Then everyone's, through either store.
    #expect(try await stores[0].directory.endLogins(scope: nil, now: Self.now) == 2)
    for gone in ["admin-login", "other-login"] {
      #expect(try await stores[1].directory.login(digest: gone, now: Self.now) == nil, "\(gone)")
    }
    #expect(try await stores[1].directory.endLogins(scope: nil, now: Self.now) == 0)
  }

  @Test(arguments: StoreKind.allCases)
  func aSessionsNewTokenEndsItsLoginsAndNoOthers(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    var random = SystemRandomNumberGenerator()
    let talk = try await stores[0].directory.createSession(
      title: "Talk", at: Date(), using: &random
    )
    .session
    let other = try await stores[0].directory.createSession(
      title: "Other", at: Date(), using: &random
    )
    .session
    try await Self.add(stores[0], "talk-login", .session(try #require(talk.id)))
    try await Self.add(stores[0], "other-login", .session(try #require(other.id)))
    try await Self.add(stores[0], "admin-login", .admin)

    let rotated = try #require(
      try await stores[1].directory.rotateToken(
        code: talk.code.lowercased(), at: Self.now, using: &random))
    #expect(rotated.session.code == talk.code && rotated.endedLogins == 1)
    #expect(rotated.session.token != talk.token)
    #expect(rotated.session.token.count == SessionDirectory.tokenLength, "as creation draws them")
    #expect(try await stores[0].directory.session(code: talk.code)?.token == rotated.session.token)
    #expect(try await stores[0].directory.session(code: other.code)?.token == other.token)
    #expect(try await stores[0].directory.login(digest: "talk-login", now: Self.now) == nil)
    #expect(try await stores[0].directory.login(digest: "other-login", now: Self.now) != nil)
    #expect(try await stores[0].directory.login(digest: "admin-login", now: Self.now) != nil)
    #expect(
      try await stores[0].directory.rotateToken(code: "ZZZZZZ", at: Self.now, using: &random) == nil
    )
  }

  /// Past a scope's cap, its oldest login goes; past the total, the oldest of the scope that
  /// holds the most, so that one session's presenters logging in again and again never log
  /// out another's. (Caps of 2 and 3, not the default 100 and 10,000: the same rule, with a
  /// handful of rows.)
  @Test(arguments: StoreKind.allCases)
  func aFullScopeLosesItsOldestLoginAndNoOtherScopes(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    var limits = SessionDirectory.LoginLimits()
    limits.perScope = 2
    limits.total = 3
    let add = {
      (
        store: QuestionStore, digest: String, scope: SessionDirectory.LoginScope,
        lifetime: TimeInterval
      ) in
      try await store.directory.addLogin(
        digest: digest, scope: scope, credential: "c",
        expiresAt: Self.now.addingTimeInterval(lifetime), now: Self.now, limits: limits)
    }
    try await add(stores[0], "one-old", .session(1), 100)
    try await add(stores[1], "one-new", .session(1), 200)
    // The scope is full: its login that expires first goes.
    try await add(stores[0], "one-newest", .session(1), 300)
    let live = { (digest: String) in
      try await stores[1].directory.login(digest: digest, now: Self.now) != nil
    }
    #expect(try await live("one-old") == false)
    #expect(try await live("one-new"))
    #expect(try await live("one-newest"))
    // The total is full: the fullest scope gives way, not the admin's.
    try await add(stores[1], "admin", .admin, 50)
    try await add(stores[0], "two", .session(2), 400)
    #expect(try await live("admin"))
    #expect(try await live("two"))
    #expect(try await live("one-new") == false, "the oldest of the fullest scope")
    #expect(try await live("one-newest"))
    #expect(try await stores[0].directory.endLogins(scope: nil, now: Self.now) == 3)
  }

  /// Wrong guesses under one key take turns across instances: each turn is the later of now
  /// and the last one's, moved on by the spacing; a key quiet long enough starts again, and
  /// a right guess forgets it.
  @Test(arguments: StoreKind.allCases)
  func wrongGuessesTakeTurnsAcrossInstancesAndAreForgotten(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let guess = { (store: QuestionStore, key: String, at: Date) in
      try await store.directory.wrongGuess(
        key: key, now: at, forgetAfter: .seconds(600), spacing: { .seconds($0) })
    }
    let now = Self.now
    #expect(try await guess(stores[0], "10.0.0.1", now) == now)
    // The first failure set the next turn a second on; the second, two more.
    #expect(try await guess(stores[1], "10.0.0.1", now) == now.addingTimeInterval(1))
    #expect(try await guess(stores[0], "10.0.0.1", now) == now.addingTimeInterval(3))
    #expect(try await guess(stores[1], "10.0.0.2", now) == now, "each key its own")
    // Long after, the key starts from nothing.
    let later = now.addingTimeInterval(3600)
    #expect(try await guess(stores[1], "10.0.0.1", later) == later)
    #expect(try await guess(stores[1], "10.0.0.1", later) == later.addingTimeInterval(1))
    try await stores[0].directory.forgetGuesses(key: "10.0.0.1")
    #expect(try await guess(stores[1], "10.0.0.1", later) == later)
  }
}
