import Synchronization

/// A token bucket per client address, for work any socket of an address may ask for (a new
/// attendee's credential): a crowd behind one address shares it, an attacker's thousand
/// sockets share it too. The table is bounded: past `maxAddresses`, the address whose
/// bucket is fullest again (the quietest) is forgotten.
package final class AddressBudgets: Sendable {
  package let burst: Int
  package let window: Duration
  package static let maxAddresses = 10_000
  private let buckets = Mutex<[String: TokenBucket]>([:])

  package init(burst: Int, window: Duration) {
    self.burst = burst
    self.window = window
  }

  /// A token `take` gave `address` back, for work that was not done.
  package func giveBack(_ address: String, now: Duration) {
    buckets.withLock { buckets in buckets[address]?.giveBack(now: now) }
  }

  /// `nil` if `address` may have one more now, else how long until it may.
  package func take(_ address: String, now: Duration) -> Duration? {
    buckets.withLock { buckets in
      if buckets.count >= Self.maxAddresses, buckets[address] == nil {
        // Buckets refill at one rate: the one that took least lately is the fullest.
        if let quietest = buckets.min(by: { $0.value.lastTaken < $1.value.lastTaken }) {
          buckets[quietest.key] = nil
        }
      }
      var bucket = buckets[address] ?? TokenBucket(burst: burst, window: window, now: now)
      let wait = bucket.take(now: now)
      buckets[address] = bucket
      return wait
    }
  }
}
