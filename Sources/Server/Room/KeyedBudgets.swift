import Synchronization

/// A token bucket per key, for work any socket of that key may ask for: per client address
/// (`AddressBudgets`: a new attendee's credential; a crowd behind one address shares it, an
/// attacker's thousand sockets share it too), or per person (`PersonBudgets`). The table is
/// bounded: past `maxKeys`, the key whose bucket is fullest again (the quietest) is
/// forgotten.
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
      if buckets.count >= maxKeys, buckets[key] == nil {
        // Buckets refill at one rate: the one that took least lately is the fullest.
        if let quietest = buckets.min(by: { $0.value.lastTaken < $1.value.lastTaken }) {
          buckets[quietest.key] = nil
        }
      }
      var bucket = buckets[key] ?? TokenBucket(burst: burst, window: window, now: now)
      let wait = bucket.take(now: now)
      buckets[key] = bucket
      return wait
    }
  }
}

/// Budgets per client address (as `SocketConnection.address` names it).
package typealias AddressBudgets = KeyedBudgets<String>
