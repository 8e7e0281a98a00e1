/// A token bucket per connection: `burst` questions at once, refilled at `burst` per
/// `window`. Time comes from the caller, so tests need no clock.
struct RateLimiter: Sendable {
  let burst: Int
  let window: Duration
  private var tokens: Double
  private var updatedAt: Duration

  init(burst: Int, window: Duration, now: Duration) {
    self.burst = burst
    self.window = window
    tokens = Double(burst)
    updatedAt = now
  }

  /// Takes one token if there is one.
  mutating func allow(now: Duration) -> Bool {
    let elapsed = max(.zero, now - updatedAt)
    updatedAt = max(updatedAt, now)
    let perSecond = Double(burst) / (window / .seconds(1))
    tokens = min(Double(burst), tokens + elapsed / .seconds(1) * perSecond)
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
