#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
}
