import Foundation
import Synchronization

/// Logged-in presenter browsers: the cookie holds a random session id, never the token, so a
/// leaked cookie expires and can be logged out, and the token itself never sits in a browser.
final class PresenterSessions: Sendable {
  let lifetime: Duration
  private let uptime: @Sendable () -> Duration
  private let makeID: @Sendable () -> UUID
  /// Session id → when it expires (uptime).
  private let sessions = Mutex<[String: Duration]>([:])
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

  /// A new session; its id has 244 random bits (two version-4 UUIDs).
  func create() -> String {
    let id = (makeID().uuidString + makeID().uuidString).replacingOccurrences(of: "-", with: "")
    let now = uptime()
    sessions.withLock { sessions in
      sessions = sessions.filter { $0.value > now }
      if sessions.count >= Self.maxSessions,
        let oldest = sessions.min(by: { $0.value < $1.value })
      {
        sessions[oldest.key] = nil
      }
      sessions[id] = now + lifetime
    }
    return id
  }

  func isValid(_ id: String) -> Bool {
    let now = uptime()
    return sessions.withLock { sessions in
      // Compared without an early exit, as the token is: ids of equal length only.
      guard let match = sessions.keys.first(where: { ConstantTime.equal($0, id) }),
        let expiry = sessions[match]
      else { return false }
      guard expiry > now else {
        sessions[match] = nil
        return false
      }
      return true
    }
  }

  func end(_ id: String) {
    sessions.withLock { _ = $0.removeValue(forKey: id) }
  }
}

/// Slows guessing of the admin token from one address without ever locking the presenter
/// out: each failure from an address makes its next attempt wait longer (doubling from
/// 250 ms up to 5 s); nothing is refused, so the right token always gets in, at worst 5 s
/// later. Attempts from one address wait their turn one after another, so a parallel burst
/// gains nothing.
final class LoginThrottle: Sendable {
  private struct Record {
    var failures = 0
    var nextAttempt: Duration = .zero
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

  /// How long this attempt from `address` must wait before it is judged; it takes its turn.
  func reserve(_ address: String) -> Duration {
    let now = uptime()
    return records.withLock { records in
      if records.count >= Self.maxAddresses, records[address] == nil {
        // Forget the quietest address: the table stays bounded.
        if let quietest = records.min(by: { $0.value.lastSeen < $1.value.lastSeen }) {
          records[quietest.key] = nil
        }
      }
      var record = records[address] ?? Record()
      let turn = max(now, record.nextAttempt)
      record.nextAttempt = turn + Self.delay(after: record.failures)
      record.lastSeen = now
      records[address] = record
      return turn - now
    }
  }

  func failed(_ address: String) {
    records.withLock { $0[address, default: Record()].failures += 1 }
  }

  func succeeded(_ address: String) {
    records.withLock { _ = $0.removeValue(forKey: address) }
  }

  /// The spacing after `failures` failures: none before the first.
  static func delay(after failures: Int) -> Duration {
    guard failures > 0 else { return .zero }
    return min(longestDelay, firstDelay * (1 << min(failures - 1, 10)))
  }
}
