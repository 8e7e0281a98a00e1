import Foundation
import QnAStore
import Synchronization

/// Bounds how fast one address may guess a secret (a token, a join code), and never makes
/// anyone wait: an address may make `burst` wrong guesses at once, then one per `interval`
/// (the generic cell rate algorithm's budget). Past that rate every guess from the address,
/// right or wrong, is answered at once with the same refusal and when to try again, and is
/// not judged: however many guesses it sends, in parallel or not, it learns the result of no
/// more than the rate allows. A right guess takes nothing from the budget. An IPv6 address
/// counts as its /64 (one host's share), an IPv4-mapped one as its IPv4 address.
package final class GuessThrottle: Sendable {
  package static let burst = 10
  package static let interval = Duration.seconds(2)
  package static let maxAddresses = 10_000
  /// How long the database keeps a key's record after its last wrong guess.
  static let memory = Duration.seconds(900)

  /// How far ahead of now a key's budget may be spent and still take a guess.
  static var tolerance: Duration { interval * (burst - 1) }

  /// The instances' shared record of wrong guesses (`SessionDirectory.wrongGuess`), and what
  /// this throttle's keys are called there.
  package struct Shared: Sendable {
    let store: QuestionStore
    let kind: String
    let now: @Sendable () -> Date
  }

  private let uptime: @Sendable () -> Duration
  private let shared: Shared?
  /// Each key's budget as the time it is whole again (on `uptime`'s clock).
  private let due = Mutex<[String: Duration]>([:])

  /// With `shared`, an address's wrong guesses count on every instance on the database.
  package init(uptime: @escaping @Sendable () -> Duration, shared: Shared? = nil) {
    self.uptime = uptime
    self.shared = shared
  }

  /// `nil` when a guess from `address` may be judged now; else how long until one may. A
  /// right guess asks this after it is judged, as a wrong one is counted: both get the same
  /// answer at the same moment.
  package func overRate(_ address: String) -> Duration? {
    let key = Self.key(address)
    let now = uptime()
    return due.withLock { Self.excess($0[key], now) }
  }

  /// A wrong guess from `address`: `nil` when it was within the rate (it is counted, and
  /// refused as wrong); else how long the address is over the rate (refused as such, not
  /// counted). With `shared`, the database's record decides too, and is what this instance
  /// knows of the key from then on.
  package func wrongGuess(_ address: String) async -> Duration? {
    let key = Self.key(address)
    let now = uptime()
    let over: Duration? = due.withLock { due in
      if let wait = Self.excess(due[key], now) { return wait }
      Self.makeRoom(for: key, in: &due, now: now)
      due[key] = max(due[key] ?? now, now) + Self.interval
      return nil
    }
    if let over { return over }
    guard let shared else { return nil }
    // A database that does not answer leaves this instance's count as the answer.
    guard
      let turn = try? await shared.store.directory.wrongGuess(
        key: "\(shared.kind) \(key)", now: shared.now(), forgetAfter: Self.memory,
        spacing: { _ in Self.interval })
    else { return nil }
    let ahead = Duration.milliseconds(Int64(max(0, turn.timeIntervalSince(shared.now())) * 1000))
    due.withLock { $0[key] = max($0[key] ?? now, now + ahead + Self.interval) }
    return ahead > Self.tolerance ? ahead - Self.tolerance : nil
  }

  /// The admin token came from `address`: its wrong guesses are forgotten, here and on the
  /// database.
  package func forget(_ address: String) {
    let key = Self.key(address)
    let known = due.withLock { $0.removeValue(forKey: key) != nil }
    if known, let shared {
      Task { try? await shared.store.directory.forgetGuesses(key: "\(shared.kind) \(key)") }
    }
  }

  /// How many addresses it keeps a budget for (at most `maxAddresses`).
  package var trackedAddresses: Int { due.withLock { $0.count } }

  /// What an address is counted as: itself, or its /64 for IPv6.
  package static func key(_ address: String) -> String {
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

  /// How long a budget due at `due` is past the tolerance at `now`; `nil` when it is not.
  private static func excess(_ due: Duration?, _ now: Duration) -> Duration? {
    guard let due, due - now > tolerance else { return nil }
    return due - now - tolerance
  }

  /// Keeps the table bounded: keys whose budget is whole go first, then the one due soonest.
  private static func makeRoom(for key: String, in due: inout [String: Duration], now: Duration) {
    guard due.count >= maxAddresses, due[key] == nil else { return }
    due = due.filter { $0.value > now }
    if due.count >= maxAddresses, let soonest = due.min(by: { $0.value < $1.value }) {
      due[soonest.key] = nil
    }
  }
}
