/// The time source for timers (the client's keep-alive, timeouts and backoff; the room's
/// coalescing window and retries), injected so that tests drive time by hand instead of
/// sleeping. Time is a `Duration` since an arbitrary origin, as the protocol core takes it.
public protocol SessionClock: Sendable {
  var now: Duration { get }
  /// Suspends until `now >= deadline`; throws `CancellationError` when cancelled.
  func sleep(until deadline: Duration) async throws
}

extension SessionClock {
  /// Suspends for `duration` from now.
  public func sleep(for duration: Duration) async throws {
    try await sleep(until: now + duration)
  }
}

/// Real, monotonic time.
public struct SystemClock: SessionClock {
  private let clock = ContinuousClock()
  private let origin: ContinuousClock.Instant

  public init() { origin = clock.now }

  public var now: Duration { origin.duration(to: clock.now) }

  public func sleep(until deadline: Duration) async throws {
    try await clock.sleep(until: origin.advanced(by: deadline), tolerance: .milliseconds(1))
  }
}
