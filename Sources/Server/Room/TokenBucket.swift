/// A token bucket: `burst` at once, refilled at `burst` per `window`. Time comes from the
/// caller, so tests need no clock.
package struct TokenBucket: Sendable {
  package let burst: Double
  /// Tokens added per second.
  package let rate: Double
  private var tokens: Double
  private var updatedAt: Duration
  /// When a token was last asked for.
  package private(set) var lastTaken: Duration

  package init(burst: Int, window: Duration, now: Duration) {
    self.burst = Double(burst)
    rate = Double(burst) / (window / .seconds(1))
    tokens = Double(burst)
    updatedAt = now
    lastTaken = now
  }

  private mutating func refill(now: Duration) {
    let elapsed = max(.zero, now - updatedAt)
    updatedAt = max(updatedAt, now)
    tokens = min(burst, tokens + elapsed / .seconds(1) * rate)
  }

  /// Takes one token if there is one: `nil`. Otherwise nothing is taken, and the result is
  /// how long until one is there (what a refusal's `retryAfter` says).
  package mutating func take(now: Duration) -> Duration? {
    refill(now: now)
    lastTaken = now
    guard tokens >= 1 else { return .seconds((1 - tokens) / rate) }
    tokens -= 1
    return nil
  }

  /// Gives back a token taken for work that was not done (a write the store failed): a
  /// client that retries an outage's refusals would otherwise spend its budget on them, and
  /// find itself rate limited once the store is back.
  package mutating func giveBack(now: Duration) {
    refill(now: now)
    tokens = min(burst, tokens + 1)
  }

  /// Takes `amount` tokens whether or not they are there, going into debt: the result is how
  /// long the caller must wait for the debt to be paid (zero when there was enough). Work
  /// that must not be refused, only slowed, waits that long before it runs.
  package mutating func spend(_ amount: Int, now: Duration) -> Duration {
    refill(now: now)
    tokens -= Double(amount)
    return tokens >= 0 ? .zero : .seconds(-tokens / rate)
  }
}
