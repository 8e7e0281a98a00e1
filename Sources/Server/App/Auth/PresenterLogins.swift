import Crypto
import Foundation
import QnAStore

/// Logged-in presenter browsers: the cookie holds a random login id, never the token, so a
/// leaked cookie expires and can be logged out, and the token itself never sits in a browser.
///
/// Logins live in the database (`QuestionStore+Logins`), under the SHA-256 of their id: a
/// login made through one instance opens every instance behind a round-robin proxy, and a
/// logout or an expiry holds on all of them. (Signed cookies with a shared key would need no
/// table, but a logout could not reach them without one, and the key would be one more
/// secret for the operator to share and turn.) A presenter's request is one indexed read.
final class PresenterLogins: Sendable {
  let lifetime: Duration
  private let store: QuestionStore
  private let now: @Sendable () -> Date
  private let makeID: @Sendable () -> UUID
  private let limits = QuestionStore.LoginLimits()

  init(
    lifetime: Duration, store: QuestionStore, now: @escaping @Sendable () -> Date,
    makeID: @escaping @Sendable () -> UUID
  ) {
    self.lifetime = lifetime
    self.store = store
    self.now = now
    self.makeID = makeID
  }

  /// A new login; its id has 244 random bits (two version-4 UUIDs). `scope`: the one Q&A
  /// session it admits to, or `nil` for all (the admin token's).
  func create(scope: Int64? = nil) async throws(StoreError) -> String {
    let id = (makeID().uuidString + makeID().uuidString).replacingOccurrences(of: "-", with: "")
    let time = now()
    try await store.addLogin(
      digest: Self.digest(id), scope: scope.map { .session($0) } ?? .admin,
      expiresAt: time.addingTimeInterval(lifetime / .seconds(1)), now: time, limits: limits)
    return id
  }

  /// Whether `id` is a live login that admits to Q&A session `session` (`nil`: the admin's
  /// routes, which only an admin login admits to). A database that does not answer admits
  /// nobody.
  func isValid(_ id: String, for session: Int64? = nil) async -> Bool {
    guard Self.wellFormed(id),
      let scope = try? await store.login(digest: Self.digest(id), now: now())
    else { return false }
    switch scope {
    case .admin: return true
    case .session(let id): return id == session
    }
  }

  func end(_ id: String) async {
    guard Self.wellFormed(id) else { return }
    try? await store.endLogin(digest: Self.digest(id))
  }

  /// An id as `create` makes them: 64 hex digits. Anything else is not looked up.
  static func wellFormed(_ id: String) -> Bool {
    id.utf8.count == 64
      && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
  }

  static func digest(_ id: String) -> String {
    SHA256.hash(data: Data(id.utf8)).map { String(format: "%02x", $0) }.joined()
  }
}
