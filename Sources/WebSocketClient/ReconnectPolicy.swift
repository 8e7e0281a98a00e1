import RFC6455

/// When and how soon to reconnect.
///
/// Exponential backoff with full jitter: before attempt *n* (counting from 1 after the first
/// failure) wait a uniformly random time in `[0, min(maximumDelay, base · 2ⁿ⁻¹)]`, so no wait
/// exceeds 30 s and clients that lost the same server do not come back in lockstep. The base
/// is `initialDelay` (0.5 s) when the link failed (timeouts, a captive portal), so one
/// attendee is back at once; and `outageDelay` (5 s) when the server went away for everyone
/// (it closed with 1001, 1011, 1012 or 1013, refused with 5xx or 429, refused or dropped the
/// connection), so that a room of 10,000 returns over seconds, not in one burst. A connection
/// that stays open for `healthyAfter` resets the count.
///
/// Reconnects after: connect failures and timeouts, TLS failures and non-101 answers other
/// than 4xx (what a captive portal's interception looks like), refusals with 5xx, 408 or
/// 429, abnormal closures (no close frame), ping timeouts, and server closes 1001, 1011, 1012
/// and 1013. Never after a close the user asked for, a normal 1000 close from the server, a
/// refusal such as 401 or 404, a broken 101, or a protocol error (which would only repeat).
public struct ReconnectPolicy: Sendable, Hashable {
  public var initialDelay: Duration
  public var outageDelay: Duration
  public var maximumDelay: Duration
  public var healthyAfter: Duration
  /// `nil` for no limit.
  public var maximumAttempts: Int?

  public init(
    initialDelay: Duration = .milliseconds(500), outageDelay: Duration = .seconds(5),
    maximumDelay: Duration = .seconds(30), healthyAfter: Duration = .seconds(10),
    maximumAttempts: Int? = nil
  ) {
    self.initialDelay = initialDelay
    self.outageDelay = outageDelay
    self.maximumDelay = maximumDelay
    self.healthyAfter = healthyAfter
    self.maximumAttempts = maximumAttempts
  }

  /// The wait before retry number `retry` (1 for the first retry), after `disconnect`.
  public func delay(
    beforeRetry retry: Int, after disconnect: Disconnect? = nil,
    using random: inout some RandomNumberGenerator
  ) -> Duration {
    let doublings = min(max(retry - 1, 0), 40)
    let base = disconnect.map(Self.isOutage) == true ? outageDelay : initialDelay
    let ceiling = min(maximumDelay, base * (1 << doublings))
    return .nanoseconds(Int64.random(in: 0...max(0, ceiling.nanoseconds), using: &random))
  }

  /// Whether the server went away for every client at once, as a restart or an overload
  /// looks from each of them.
  static func isOutage(_ disconnect: Disconnect) -> Bool {
    switch disconnect {
    case .connectFailed: return true
    case .refused(let status): return status >= 500 || status == 429
    case .closed(let status):
      if !status.wasClean && status.code == .abnormalClosure { return true }
      return [.goingAway, .internalError, .serviceRestart, .tryAgainLater].contains(status.code)
    case .userClosed, .timedOut, .tlsFailed, .invalidRequest, .handshakeFailed, .pingTimeout:
      return false
    }
  }

  public func shouldReconnect(after disconnect: Disconnect) -> Bool {
    switch disconnect {
    case .userClosed, .invalidRequest, .handshakeFailed:
      return false
    // A captive portal intercepts TLS too: its certificate fails until the attendee logs in.
    case .connectFailed, .timedOut, .pingTimeout, .tlsFailed:
      return true
    case .refused(let status):
      // 4xx says this URL or these credentials are wrong; anything else (a portal's 200 or
      // 302, an overloaded server's 503) may pass.
      return !(400..<500).contains(status) || status == 408 || status == 429
    case .closed(let status):
      if case .protocolViolation = status.error { return false }
      if !status.wasClean && status.code == .abnormalClosure { return true }
      return [.goingAway, .internalError, .serviceRestart, .tryAgainLater].contains(status.code)
    }
  }
}

/// Why a connection attempt or connection ended, as far as reconnecting is concerned.
public enum Disconnect: Sendable, Hashable {
  case userClosed
  case connectFailed(String)
  case timedOut(String)
  case tlsFailed(String)
  case invalidRequest(String)
  /// The server answered the upgrade with another HTTP status.
  case refused(status: Int)
  /// The server's 101 broke the handshake rules (wrong accept key, unoffered subprotocol…).
  case handshakeFailed(String)
  /// No pong within the ping timeout.
  case pingTimeout(waited: Duration)
  case closed(CloseStatus)
}

extension Disconnect: CustomStringConvertible {
  public var description: String {
    switch self {
    case .userClosed: "closed"
    case .connectFailed(let detail): detail
    case .timedOut(let detail): "timed out: \(detail)"
    case .tlsFailed(let detail): "TLS failed: \(detail)"
    case .invalidRequest(let detail): "invalid request: \(detail)"
    case .refused(let status): "server refused the WebSocket upgrade with HTTP \(status)"
    case .handshakeFailed(let detail): "handshake failed: \(detail)"
    case .pingTimeout(let waited): "no pong for \(waited): connection presumed dead"
    case .closed(let status): status.description
    }
  }
}
