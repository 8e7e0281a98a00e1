import Foundation
import Synchronization

/// Logged-in presenter browsers: the cookie holds a random login id, never the token, so a
/// leaked cookie expires and can be logged out, and the token itself never sits in a browser.
final class PresenterLogins: Sendable {
  let lifetime: Duration
  private let uptime: @Sendable () -> Duration
  private let makeID: @Sendable () -> UUID
  /// Login id → when it expires (uptime), and the Q&A session it is for (`nil`: every one,
  /// a login with the admin token).
  private let logins = Mutex<[String: (expiry: Duration, scope: Int64?)]>([:])
  /// Live logins one scope (a session's presenters, or the admin's) keeps at most: past it,
  /// that scope's oldest goes, so no presenter, logging in again and again, can log out
  /// another session's.
  static let maxLoginsPerScope = 100
  /// Live logins in all: past it, the oldest login of the scope holding the most goes.
  static let maxLogins = 10_000

  init(
    lifetime: Duration, uptime: @escaping @Sendable () -> Duration,
    makeID: @escaping @Sendable () -> UUID
  ) {
    self.lifetime = lifetime
    self.uptime = uptime
    self.makeID = makeID
  }

  /// A new login; its id has 244 random bits (two version-4 UUIDs). `scope`: the one Q&A
  /// session it admits to, or `nil` for all (the admin token's).
  func create(scope: Int64? = nil) -> String {
    let id = (makeID().uuidString + makeID().uuidString).replacingOccurrences(of: "-", with: "")
    let now = uptime()
    logins.withLock { logins in
      logins = logins.filter { $0.value.expiry > now }
      let scopes = Dictionary(grouping: logins, by: \.value.scope)
      // Where to make room: this scope, at its cap; or, with every login taken, the fullest.
      var crowded: Int64?? = .none
      if (scopes[scope]?.count ?? 0) >= Self.maxLoginsPerScope {
        crowded = .some(scope)
      } else if logins.count >= Self.maxLogins,
        let fullest = scopes.max(by: { $0.value.count < $1.value.count })
      {
        crowded = .some(fullest.key)
      }
      if case .some(let full) = crowded,
        let oldest = scopes[full]?.min(by: { $0.value.expiry < $1.value.expiry })
      {
        logins[oldest.key] = nil
      }
      logins[id] = (now + lifetime, scope)
    }
    return id
  }

  /// Whether `id` is a live login that admits to Q&A session `session` (`nil`: the admin's
  /// routes, which only an admin login admits to).
  func isValid(_ id: String, for session: Int64? = nil) -> Bool {
    let now = uptime()
    return logins.withLock { logins in
      // Compared without an early exit, as the token is: ids of equal length only.
      guard let match = logins.keys.first(where: { ConstantTime.equal($0, id) }),
        let login = logins[match]
      else { return false }
      guard login.expiry > now else {
        logins[match] = nil
        return false
      }
      return login.scope == nil || login.scope == session
    }
  }

  func end(_ id: String) {
    logins.withLock { _ = $0.removeValue(forKey: id) }
  }
}
