import NIOHTTP1

/// Whether a WebSocket upgrade may go on, as the app's credentials judge it.
package enum UpgradeVerdict: Sendable, Equatable {
  case pass
  /// The status and one line saying why, answered at once; with `retryAfter` (429, a guess
  /// over its rate), a `Retry-After` header says when to try again.
  case refuse(HTTPResponseStatus, String, retryAfter: Duration? = nil)
}

/// A verdict now, or one a lookup away (a session's row): the gate holds the request, and
/// reads nothing more from its connection, until the verdict is in.
package enum UpgradeJudgement: Sendable {
  case decided(UpgradeVerdict)
  case pending(@Sendable () async -> UpgradeVerdict)
}

/// Asked by the `RequestGate` for every upgrade its policy lets through, on the event loop:
/// it must not block.
package typealias UpgradeJudge =
  @Sendable (_ head: HTTPRequestHead, _ peer: String) -> UpgradeJudgement
