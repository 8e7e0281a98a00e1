import Foundation
import Synchronization

/// Logged-in presenter browsers: the cookie holds a random session id, never the token, so a
/// leaked cookie expires and can be logged out, and the token itself never sits in a browser.
final class PresenterSessions: Sendable {
  let lifetime: Duration
  private let uptime: @Sendable () -> Duration
  private let makeID: @Sendable () -> UUID
  /// Login id → when it expires (uptime), and the Q&A session it is for (`nil`: every one,
  /// a login with the admin token).
  private let sessions = Mutex<[String: (expiry: Duration, scope: Int64?)]>([:])
  /// Beyond this many, the session closest to expiring goes first.
  static let maxSessions = 1000

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
    sessions.withLock { sessions in
      sessions = sessions.filter { $0.value.expiry > now }
      if sessions.count >= Self.maxSessions {
        // A session's presenter logging in again and again pushes out session logins first,
        // never the admin's while there are others.
        let candidates = sessions.filter { scope == nil || $0.value.scope != nil }
        if let oldest = (candidates.isEmpty ? sessions : candidates).min(by: {
          $0.value.expiry < $1.value.expiry
        }) {
          sessions[oldest.key] = nil
        }
      }
      sessions[id] = (now + lifetime, scope)
    }
    return id
  }

  /// Whether `id` is a live login that admits to Q&A session `session` (`nil`: the admin's
  /// routes, which only an admin login admits to).
  func isValid(_ id: String, for session: Int64? = nil) -> Bool {
    let now = uptime()
    return sessions.withLock { sessions in
      // Compared without an early exit, as the token is: ids of equal length only.
      guard let match = sessions.keys.first(where: { ConstantTime.equal($0, id) }),
        let login = sessions[match]
      else { return false }
      guard login.expiry > now else {
        sessions[match] = nil
        return false
      }
      return login.scope == nil || login.scope == session
    }
  }

  func end(_ id: String) {
    sessions.withLock { _ = $0.removeValue(forKey: id) }
  }
}

/// Slows guessing of the admin token from one address without ever locking the presenter
/// out: the right token is let in at once, whatever came before it; a wrong one is answered
/// only at its turn, and the turns of one address come one after another, spaced from 250 ms
/// doubling to 5 s. However many guesses an address sends at once, it learns their results
/// a few a second at most; a success forgets its failures.
final class LoginThrottle: Sendable {
  private struct Record {
    var failures = 0
    var nextTurn: Duration = .zero
    var lastSeen: Duration = .zero
  }

  static let firstDelay = Duration.milliseconds(250)
  static let longestDelay = Duration.seconds(5)
  static let maxAddresses = 10_000

  private let uptime: @Sendable () -> Duration
  private let records = Mutex<[String: Record]>([:])

  init(uptime: @escaping @Sendable () -> Duration) {
    self.uptime = uptime
  }

  /// Whether the attempt gets in: `correct` says whether its token was right (compared in
  /// constant time by the caller). A wrong one returns at its turn.
  func judge(_ address: String, correct: Bool) async -> Bool {
    if correct {
      records.withLock { _ = $0.removeValue(forKey: address) }
      return true
    }
    let wait = takeTurn(address)
    if wait > .zero { try? await Task.sleep(for: wait) }
    return false
  }

  /// A wrong token from `address`, judged where nothing may wait (a channel handler): how
  /// long to hold its refusal back.
  func failed(_ address: String) -> Duration { takeTurn(address) }

  /// Counts a failure and says how long until its answer is due.
  private func takeTurn(_ address: String) -> Duration {
    let now = uptime()
    return records.withLock { records in
      if records.count >= Self.maxAddresses, records[address] == nil,
        let quietest = records.min(by: { $0.value.lastSeen < $1.value.lastSeen })
      {
        // Forget the quietest address: the table stays bounded.
        records[quietest.key] = nil
      }
      var record = records[address] ?? Record()
      record.failures += 1
      let turn = max(now, record.nextTurn)
      record.nextTurn = turn + Self.delay(after: record.failures)
      record.lastSeen = now
      records[address] = record
      return turn - now
    }
  }

  /// The spacing after `failures` failures.
  static func delay(after failures: Int) -> Duration {
    min(longestDelay, firstDelay * (1 << min(max(failures - 1, 0), 10)))
  }
}
