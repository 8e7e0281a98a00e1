/// The time source for every timer of the runtime (keep-alive, timeouts, backoff), injected so
/// that tests drive time by hand instead of sleeping. Time is a `Duration` since an arbitrary
/// origin, as the protocol core takes it.
public protocol SessionClock: Sendable {
  var now: Duration { get }
  /// Suspends until `now >= deadline`; throws `CancellationError` when cancelled.
  func sleep(until deadline: Duration) async throws
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

extension Duration {
  /// The whole duration in nanoseconds (what NIO's and the random APIs take).
  var nanoseconds: Int64 {
    components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
  }
}
