import Crypto
import Foundation
import QnAStore

/// Logged-in presenter browsers: the cookie holds a random login id, never the token, so a
/// leaked cookie expires and can be logged out, and the token itself never sits in a browser.
///
/// Logins live in the database (`SessionDirectory+Logins`), under the SHA-256 of their id: a
/// login made through one instance opens every instance behind a round-robin proxy, and a
/// logout or an expiry holds on all of them. (Signed cookies with a shared key would need no
/// table, but a logout could not reach them without one, and the key would be one more
/// secret for the operator to share and turn.) A presenter's request is one indexed read.
///
/// A login is tied to the token that made it: it keeps a digest of that token, and admits
/// only while that token still admits to its scope. An admin login: while it is this
/// instance's admin token (changed and restarted, every old admin login ends, on each instance
/// as it starts with the new one). A session's login: while it is the session's token, or
/// the admin token when the admin logged in there (a session's new token ends the first kind,
/// a new admin token the second).
package final class PresenterLogins: Sendable {
  let lifetime: Duration
  private let store: QuestionStore
  private let now: @Sendable () -> Date
  private let makeID: @Sendable () -> UUID
  private let limits = SessionDirectory.LoginLimits()

  package init(
    lifetime: Duration, store: QuestionStore, now: @escaping @Sendable () -> Date,
    makeID: @escaping @Sendable () -> UUID
  ) {
    self.lifetime = lifetime
    self.store = store
    self.now = now
    self.makeID = makeID
  }

  /// A new login, made with `token` (judged right for the scope just before); its id has
  /// 244 random bits (two version-4 UUIDs). `scope`: the one Q&A session it admits to, or
  /// `nil` for all (the admin token's).
  package func create(scope: Int64? = nil, token: String) async throws(StoreError) -> String {
    let id = (makeID().uuidString + makeID().uuidString).replacingOccurrences(of: "-", with: "")
    let time = now()
    try await store.directory.addLogin(
      digest: Self.digest(id), scope: scope.map { .session($0) } ?? .admin,
      credential: Self.credential(token, login: id),
      expiresAt: time.addingTimeInterval(lifetime / .seconds(1)), now: time, limits: limits)
    return id
  }

  /// Whether `id` is a live login that admits to Q&A session `session` (`nil`: the admin's
  /// routes, which only an admin login admits to), made with a token that admits there now:
  /// `adminToken` (this instance's) for any login, `sessionToken` (the session's, as its row
  /// says now) for a login of that session. A database that does not answer admits nobody.
  package func isValid(
    _ id: String, for session: Int64? = nil, adminToken: String?, sessionToken: String? = nil
  ) async -> Bool {
    guard Self.wellFormed(id),
      let login = try? await store.directory.login(digest: Self.digest(id), now: now())
    else { return false }
    let madeWith = { (token: String?) -> Bool in
      guard let token else { return false }
      return ConstantTime.equal(Self.credential(token, login: id), login.credential)
    }
    switch login.scope {
    case .admin: return madeWith(adminToken)
    case .session(let scoped):
      return scoped == session && (madeWith(sessionToken) || madeWith(adminToken))
    }
  }

  package func end(_ id: String) async {
    guard Self.wellFormed(id) else { return }
    try? await store.directory.endLogin(digest: Self.digest(id))
  }

  /// An id as `create` makes them: 64 hex digits. Anything else is not looked up.
  static func wellFormed(_ id: String) -> Bool {
    id.utf8.count == 64
      && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
  }

  package static func digest(_ id: String) -> String {
    SHA256.hash(data: Data(id.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// What a login keeps of the token that made it: an HMAC-SHA256 of the token under the
  /// login's own id. Never the token; and as the database holds no id (only its SHA-256), a
  /// copy of it gives no way to test guesses of an admin token an operator chose.
  static func credential(_ token: String, login id: String) -> String {
    HMAC<SHA256>.authenticationCode(
      for: Data((credentialLabel + token).utf8), using: SymmetricKey(data: Data(id.utf8))
    ).map { String(format: "%02x", $0) }.joined()
  }

  /// Sets these digests apart from any other use of the same key.
  private static let credentialLabel = "qna presenter login credential\n"
}
