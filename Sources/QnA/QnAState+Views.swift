import Foundation

/// What the front ends show, derived from the state on demand.
extension QnAState {
  /// Confirmed questions by server creation time, then the unconfirmed ones in typed order.
  public var orderedQuestions: [Question] {
    let confirmed = questions.values.filter { !$0.status.isUnconfirmed }.sorted { a, b in
      switch (a.createdAt, b.createdAt) {
      case (let x?, let y?) where x != y: x < y
      case (.some, nil): true
      case (nil, .some): false
      default: a.sequence < b.sequence
      }
    }
    return confirmed + unconfirmed.compactMap { questions[$0] }.filter(\.status.isUnconfirmed)
  }

  /// Questions typed and not confirmed by the server, failed ones included: what must
  /// survive a restart (a failed one stays until the user retries or discards it).
  public var pendingQuestions: [Question] {
    unconfirmed.compactMap { questions[$0] }.filter(\.status.isUnconfirmed)
  }

  public var counts: QuestionCounts {
    var counts = QuestionCounts(asked: questions.count)
    for question in questions.values {
      switch question.status {
      case .answered: counts.answered += 1
      case .queued, .sending, .waiting: counts.pending += 1
      case .failed: counts.failed += 1
      case .unanswered: break
      }
    }
    return counts
  }

  /// Notices still up at the last clock reading.
  public var currentNotices: [Notice] { notices.filter { $0.expiresAt > now } }

  /// One line for a status bar.
  public var statusLine: String {
    switch connection {
    case .idle: return "not connected"
    case .connecting(let attempt):
      return attempt > 1 ? "connecting (attempt \(attempt))…" : "connecting…"
    case .awaitingHandshake: return "connected, waiting for the server's handshake…"
    case .ready(let id):
      var line = "connected"
      if let stalledFor {
        line += ", stalled: no pong for \(Self.wholeSeconds(stalledFor)) s"
      } else if let roundTrip {
        line += " · \(Self.milliseconds(roundTrip)) ms"
      }
      return line + " · \(id.uuidString.prefix(8))"
    case .waitingToRetry(let at, let attempt, let reason):
      let left = Self.wholeSeconds(max(.zero, at - now), roundingUp: true)
      return "reconnecting in \(left) s (attempt \(attempt)): \(reason)"
    case .offline(let reason): return "offline: \(reason)"
    }
  }

  /// Whole seconds as a status shows them: a wait truncated (4.3 s waited is 4), a countdown
  /// rounded up (2.5 s left is 3 until it is 2).
  public static func wholeSeconds(_ duration: Duration, roundingUp: Bool = false) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds + (roundingUp && attoseconds > 0 ? 1 : 0)
  }

  static func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
  }
}
