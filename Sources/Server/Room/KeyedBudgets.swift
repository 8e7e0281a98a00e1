import Synchronization

/// A token bucket per key, for work any socket of that key may ask for: per client address
/// (`AddressBudgets`: a new attendee's credential; a crowd behind one address shares it, an
/// attacker's thousand sockets share it too), or per person (`PersonBudgets`). The table is
/// bounded: when a new key finds it full, the buckets untouched for a window (full again, as
/// a new one would be) are forgotten, and if that leaves it more than seven eighths full,
/// the quietest down to seven eighths, so that the next eighth of new keys takes no pass of
/// its own (it runs on the event loops, under one lock).
package final class KeyedBudgets<Key: Hashable & Sendable>: Sendable {
  package let burst: Int
  package let window: Duration
  package let maxKeys: Int
  private let buckets = Mutex<[Key: TokenBucket]>([:])

  package init(burst: Int, window: Duration, maxKeys: Int = 10_000) {
    self.burst = burst
    self.window = window
    self.maxKeys = maxKeys
  }

  /// A token `take` gave `key` back, for work that was not done.
  package func giveBack(_ key: Key, now: Duration) {
    buckets.withLock { buckets in buckets[key]?.giveBack(now: now) }
  }

  /// `nil` if `key` may have one more now, else how long until it may.
  package func take(_ key: Key, now: Duration) -> Duration? {
    buckets.withLock { buckets in
      if buckets.count >= maxKeys, buckets[key] == nil { makeRoom(in: &buckets, now: now) }
      var bucket = buckets[key] ?? TokenBucket(burst: burst, window: window, now: now)
      let wait = bucket.take(now: now)
      buckets[key] = bucket
      return wait
    }
  }
}

extension KeyedBudgets {
  /// Forgets the buckets that are full again, then the quietest (buckets refill at one rate:
  /// the one that took least lately is the fullest) down to seven eighths of `maxKeys`.
  private func makeRoom(in buckets: inout [Key: TokenBucket], now: Duration) {
    buckets = buckets.filter { now - $0.value.lastTaken < window }
    let keep = maxKeys - max(1, maxKeys / 8)
    guard buckets.count > keep else { return }
    let quietest = buckets.sorted { $0.value.lastTaken < $1.value.lastTaken }
    for (key, _) in quietest.prefix(buckets.count - keep) { buckets[key] = nil }
  }

  /// How many keys it holds a bucket for.
  package var count: Int { buckets.withLock(\.count) }
}

/// Budgets per client address (as `SocketConnection.address` names it).
package typealias AddressBudgets = KeyedBudgets<String>
