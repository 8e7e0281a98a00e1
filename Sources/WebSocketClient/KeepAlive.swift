/// Liveness of an open connection, sans I/O: a ping every `interval`, each with a unique
/// payload; no matching pong within `timeout` means the connection is dead even if TCP says
/// nothing (a half-open link after Wi-Fi drops or a laptop sleeps).
public struct KeepAlive: Sendable {
  public enum Action: Sendable, Equatable {
    case sendPing([UInt8])
    /// No pong for the outstanding ping within the timeout.
    case timedOut(waited: Duration)
  }

  public let interval: Duration
  public let timeout: Duration
  /// The round-trip time of the last answered ping.
  public private(set) var lastRoundTrip: Duration?

  private var sequence: UInt64 = 0
  private var outstanding: (payload: [UInt8], sentAt: Duration)?
  private var nextPingAt: Duration

  public init(interval: Duration = .seconds(20), timeout: Duration = .seconds(20), now: Duration) {
    self.interval = interval
    self.timeout = timeout
    nextPingAt = now + interval
  }

  /// When `poll(now:)` must next be called.
  public var deadline: Duration {
    if let outstanding { return outstanding.sentAt + timeout }
    return nextPingAt
  }

  /// How long the outstanding ping has waited, if one is outstanding.
  public func waitingForPong(now: Duration) -> Duration? {
    outstanding.map { now - $0.sentAt }
  }

  public mutating func poll(now: Duration) -> Action? {
    if let outstanding {
      let waited = now - outstanding.sentAt
      return waited >= timeout ? .timedOut(waited: waited) : nil
    }
    guard now >= nextPingAt else { return nil }
    sequence &+= 1
    let payload = (0..<8).map { UInt8(truncatingIfNeeded: sequence >> UInt64(56 - 8 * $0)) }
    outstanding = (payload, now)
    return .sendPing(payload)
  }

  /// A pong arrived; returns the round-trip time when it answers the outstanding ping.
  /// Unsolicited pongs and stale answers are ignored (RFC 6455 §5.5.3).
  public mutating func pongReceived(_ payload: [UInt8], now: Duration) -> Duration? {
    guard let outstanding, outstanding.payload == payload else { return nil }
    self.outstanding = nil
    let roundTrip = now - outstanding.sentAt
    lastRoundTrip = roundTrip
    nextPingAt = max(now, outstanding.sentAt + interval)
    return roundTrip
  }

  /// Time stood still for the connection (e.g. its reader waited on a slow consumer, so a
  /// pong may be sitting unread): push the timeout back by that long.
  public mutating func postpone(by pause: Duration) {
    if let outstanding { self.outstanding = (outstanding.payload, outstanding.sentAt + pause) }
  }
}
