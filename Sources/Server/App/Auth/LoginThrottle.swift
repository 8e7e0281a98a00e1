import Foundation
import Synchronization

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
    records.withLock { _ = $0.removeValue(forKey: address) }
  }

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
