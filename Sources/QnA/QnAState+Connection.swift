import Foundation

/// Connection changes: status, round trip, and the queue they release or refill.
extension QnAState {
  mutating func applyConnectionChange(_ event: QnAEvent) -> [QnAEffect] {
    switch event {
    case .connecting(let attempt):
      connection = .connecting(attempt: attempt)
      return [.report(.connecting(attempt: attempt))]
    case .connected:
      connection = .awaitingHandshake
      return [.report(.connected)]
    case .roundTrip(let time):
      roundTrip = time
      stalledFor = nil
      return []
    case .stalled(let waited):
      stalledFor = waited
      return []
    case .disconnected(let reason, let retry):
      stalledFor = nil
      if let retry {
        connection = .waitingToRetry(at: now + retry.after, attempt: retry.attempt, reason: reason)
      } else {
        connection = .offline(reason: reason)
      }
      return [.report(.disconnected(reason: reason, retry: retry))] + requeueSending()
    default:
      return []
    }
  }

  mutating func handshake(_ message: Handshake) -> [QnAEffect] {
    connection = .ready(connectionID: message.id)
    return [.report(.handshake(connectionID: message.id))] + dispatchQueued()
  }
}
