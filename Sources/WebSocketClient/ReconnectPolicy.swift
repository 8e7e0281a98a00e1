import CommandLineValues
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
    case .refused(let refusal):
      let status = refusal.statusCode ?? 0
      return status >= 500 || status == 429
    case .closed(let status):
      if !status.wasClean && status.code == .abnormalClosure { return true }
      return [.goingAway, .internalError, .serviceRestart, .tryAgainLater].contains(status.code)
    case .userClosed, .reconnectRequested, .timedOut, .tlsFailed, .invalidRequest,
      .handshakeFailed, .pingTimeout:
      return false
    }
  }

  public func shouldReconnect(after disconnect: Disconnect) -> Bool {
    switch disconnect {
    case .userClosed, .invalidRequest, .handshakeFailed:
      return false
    // Like a refused upgrade: a 407 or a ruleset's "not allowed" would only repeat.
    case .connectFailed(.proxy(_, let refusal)):
      return !refusal.isPermanent
    // A captive portal intercepts TLS too: its certificate fails until the attendee logs in.
    case .reconnectRequested, .connectFailed, .timedOut, .pingTimeout, .tlsFailed:
      return true
    case .refused(let refusal):
      // 4xx says this URL or these credentials are wrong; anything else (a portal's 200 or
      // 302, an overloaded server's 503) may pass.
      let status = refusal.statusCode ?? 0
      return !(400..<500).contains(status) || status == 408 || status == 429
    case .closed(let status):
      if case .protocolViolation = status.error { return false }
      if !status.wasClean && status.code == .abnormalClosure { return true }
      return [.goingAway, .internalError, .serviceRestart, .tryAgainLater].contains(status.code)
    }
  }
}

/// Why a connection attempt or connection ended, with the error that says so.
public enum Disconnect: Sendable, Hashable {
  case userClosed
  /// The user asked to reconnect at once (a "reconnect now"): this connection was dropped.
  case reconnectRequested
  /// TCP did not connect, or ended before the server's answer.
  case connectFailed(TransportError)
  case timedOut(Timeout)
  case tlsFailed(TransportError)
  case invalidRequest(HandshakeRequestError)
  /// The server answered the upgrade with another HTTP status: the error carries the
  /// status, reason, headers and, for a redirect, `location`.
  case refused(HandshakeError)
  /// The server's 101 broke the handshake rules (wrong accept key, unoffered subprotocol…).
  case handshakeFailed(HandshakeError)
  /// No pong within the ping timeout.
  case pingTimeout(waited: Duration)
  case closed(CloseStatus)

  public enum Timeout: Sendable, Hashable {
    /// TCP (and TLS) did not connect within this long.
    case connect(Duration)
    /// No 101 within this long of connecting.
    case handshake(Duration)
  }

  /// A refusal with this HTTP status (and no headers), as tests and policies spell one.
  public static func refused(status: Int) -> Disconnect {
    .refused(.unexpectedStatus(code: status, reason: "", headers: HTTPHeaders()))
  }

  /// The HTTP status of a refused upgrade.
  public var refusalStatus: Int? {
    if case .refused(let refusal) = self { refusal.statusCode } else { nil }
  }
}

extension Disconnect: CustomStringConvertible {
  public var description: String {
    switch self {
    case .userClosed: "closed"
    case .reconnectRequested: "reconnecting on request"
    case .connectFailed(let error): error.description
    case .timedOut(.connect(let limit)):
      "timed out: no connection within \(DurationValue.format(limit))"
    case .timedOut(.handshake(let limit)):
      "timed out: no handshake response within \(DurationValue.format(limit))"
    case .tlsFailed(let error): error.description
    case .invalidRequest(let error): "invalid request: \(error)"
    case .refused(let refusal): Self.describe(refusal)
    case .handshakeFailed(let error): "handshake failed: \(error)"
    case .pingTimeout(let waited):
      "no pong for \(DurationValue.format(waited)): connection presumed dead"
    case .closed(let status): status.description
    }
  }

  /// "server refused the WebSocket upgrade with HTTP 302 Found", and where a redirect points:
  /// on conference Wi-Fi that is usually the network's login page.
  private static func describe(_ refusal: HandshakeError) -> String {
    guard case .unexpectedStatus(let code, let reason, _) = refusal else {
      return refusal.description
    }
    var text = "server refused the WebSocket upgrade with HTTP \(code)"
    if !reason.isEmpty { text += " \(reason)" }
    if let location = refusal.location { text += "; it redirects to \(location)" }
    return text
  }
}
