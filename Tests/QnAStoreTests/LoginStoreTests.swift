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
    _ store: QuestionStore, _ digest: String, _ scope: QuestionStore.LoginScope,
    credential: String = "made-with", lifetime: TimeInterval = 3600
  ) async throws {
    try await store.addLogin(
      digest: digest, scope: scope, credential: credential,
      expiresAt: now.addingTimeInterval(lifetime), now: now, limits: QuestionStore.LoginLimits())
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
    let admin = try await stores[1].login(digest: "admin-login", now: Self.now)
    #expect(admin?.scope == .admin && admin?.credential == "by-admin")
    let talk = try await stores[1].login(digest: "talk-login", now: Self.now)
    #expect(talk?.scope == .session(1) && talk?.credential == "by-talk")
    #expect(try await stores[1].login(digest: "stale-login", now: Self.now) == nil, "expired")

    // One session's logins end (the live ones counted); the others stay.
    #expect(try await stores[1].endLogins(scope: .session(1), now: Self.now) == 2)
    for gone in ["talk-login", "talk-login-2"] {
      #expect(try await stores[0].login(digest: gone, now: Self.now) == nil, "\(gone)")
    }
    #expect(try await stores[0].login(digest: "other-login", now: Self.now) != nil)
    // Then everyone's, through either store.
    #expect(try await stores[0].endLogins(scope: nil, now: Self.now) == 2)
    for gone in ["admin-login", "other-login"] {
      #expect(try await stores[1].login(digest: gone, now: Self.now) == nil, "\(gone)")
    }
    #expect(try await stores[1].endLogins(scope: nil, now: Self.now) == 0)
  }

  @Test(arguments: StoreKind.allCases)
  func aSessionsNewTokenEndsItsLoginsAndNoOthers(_ kind: StoreKind) async throws {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    var random = SystemRandomNumberGenerator()
    let talk = try await stores[0].createSession(title: "Talk", at: Date(), using: &random)
      .session
    let other = try await stores[0].createSession(title: "Other", at: Date(), using: &random)
      .session
    try await Self.add(stores[0], "talk-login", .session(try #require(talk.id)))
    try await Self.add(stores[0], "other-login", .session(try #require(other.id)))
    try await Self.add(stores[0], "admin-login", .admin)

    let rotated = try #require(
      try await stores[1].rotateToken(code: talk.code.lowercased(), at: Self.now, using: &random))
    #expect(rotated.session.code == talk.code && rotated.endedLogins == 1)
    #expect(rotated.session.token != talk.token)
    #expect(rotated.session.token.count == QuestionStore.tokenLength, "as creation draws them")
    #expect(try await stores[0].session(code: talk.code)?.token == rotated.session.token)
    #expect(try await stores[0].session(code: other.code)?.token == other.token)
    #expect(try await stores[0].login(digest: "talk-login", now: Self.now) == nil)
    #expect(try await stores[0].login(digest: "other-login", now: Self.now) != nil)
    #expect(try await stores[0].login(digest: "admin-login", now: Self.now) != nil)
    #expect(try await stores[0].rotateToken(code: "ZZZZZZ", at: Self.now, using: &random) == nil)
  }
}
