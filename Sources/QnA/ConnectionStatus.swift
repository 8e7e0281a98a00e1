#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The connection as the attendee sees it.
public enum ConnectionStatus: Sendable, Hashable {
  /// Not started yet.
  case idle
  case connecting(attempt: Int)
  /// The WebSocket is open, the server's handshake has not arrived.
  case awaitingHandshake
  /// Questions can go out, under this connection id.
  case ready(connectionID: UUID)
  /// Down; the next attempt starts at clock time `at`.
  case waitingToRetry(at: Duration, attempt: Int, reason: String)
  /// Down for good.
  case offline(reason: String)
}
