import Foundation
import Synchronization

/// Slows guessing of a secret (a token, a join code) from one address without ever locking
/// its holder out: the right one is let in at once, whatever came before it; a wrong one is
/// answered only at its turn, and the turns of one address come one after another, spaced
/// from 250 ms doubling to 5 s. However many guesses an address sends at once, it learns
/// their results a few a second at most. An IPv6 address counts as its /64 (one host's
/// share; its other addresses are free to it), an IPv4-mapped one as its IPv4 address.
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
      forget(address)
      return true
    }
    let wait = takeTurn(address)
    if wait > .zero { try? await Task.sleep(for: wait) }
    return false
  }

  /// A wrong token from `address`, judged where nothing may wait (a channel handler): how
  /// long to hold its refusal back.
  func failed(_ address: String) -> Duration { takeTurn(address) }

  /// The admin token from `address` was right: its wrong guesses are forgotten.
  func forget(_ address: String) {
    records.withLock { _ = $0.removeValue(forKey: Self.key(address)) }
  }

  /// What an address is counted as: itself, or its /64 for IPv6.
  static func key(_ address: String) -> String {
    guard address.contains(":") else { return address }
    var bytes = in6_addr()
    guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
    return withUnsafeBytes(of: &bytes) { raw -> String in
      if raw.prefix(10).allSatisfy({ $0 == 0 }), raw[10] == 0xFF, raw[11] == 0xFF {
        return raw.suffix(4).map(String.init).joined(separator: ".")
      }
      return raw.prefix(8).map { String(format: "%02x", $0) }.joined() + "::/64"
    }
  }

  /// Counts a failure and says how long until its answer is due.
  private func takeTurn(_ raw: String) -> Duration {
    let address = Self.key(raw)
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
