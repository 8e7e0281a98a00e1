import Foundation
import QnAStore
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

  /// The instances' shared record of wrong guesses (`QuestionStore.wrongGuess`), and what
  /// this throttle's keys are called there.
  struct Shared: Sendable {
    let store: QuestionStore
    let kind: String
    let now: @Sendable () -> Date
  }

  /// How long a key's record is kept after its last wrong guess.
  static let memory = Duration.seconds(900)

  private let uptime: @Sendable () -> Duration
  private let shared: Shared?
  private let records = Mutex<[String: Record]>([:])

  /// With `shared`, an address's wrong guesses take turns across every instance on the
  /// database: here first (so that the database sees at most one guess per address per turn
  /// of this instance), then in the shared queue.
  init(uptime: @escaping @Sendable () -> Duration, shared: Shared? = nil) {
    self.uptime = uptime
    self.shared = shared
  }

  /// Whether the attempt gets in: `correct` says whether its token was right (compared in
  /// constant time by the caller). A wrong one returns at its turn.
  func judge(_ address: String, correct: Bool) async -> Bool {
    if correct {
      forget(address)
      return true
    }
    let wait = await failed(address)
    if wait > .zero { try? await Task.sleep(for: wait) }
    return false
  }

  /// A wrong secret from `address`: waits for this instance's turn, then says how much
  /// longer its refusal must wait for the shared one.
  func failed(_ address: String) async -> Duration {
    let local = takeTurn(address)
    guard let shared else { return local }
    if local > .zero { try? await Task.sleep(for: local) }
    // A database that does not answer leaves the local turn, already waited, as the answer.
    guard
      let turn = try? await shared.store.wrongGuess(
        key: "\(shared.kind) \(Self.key(address))", now: shared.now(), forgetAfter: Self.memory,
        spacing: Self.delay(after:))
    else { return .zero }
    let wait = turn.timeIntervalSince(shared.now())
    return wait > 0 ? .milliseconds(Int64(wait * 1000)) : .zero
  }

  /// The admin token from `address` was right: its wrong guesses are forgotten, here and
  /// on the database.
  func forget(_ address: String) {
    let key = Self.key(address)
    let known = records.withLock { $0.removeValue(forKey: key) != nil }
    if known, let shared {
      Task { try? await shared.store.forgetGuesses(key: "\(shared.kind) \(key)") }
    }
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
