import Foundation

/// An attendee's vote for a question, as the vote table keys it.
package struct VotePair: Sendable, Hashable, Comparable {
  package var attendee: String
  package var question: String

  package init(attendee: String, question: String) {
    self.attendee = attendee
    self.question = question
  }

  package init(_ request: VoteRequest) {
    self.init(attendee: request.attendee.text, question: request.question.text)
  }

  package static func < (left: VotePair, right: VotePair) -> Bool {
    (left.attendee, left.question) < (right.attendee, right.question)
  }
}

/// A batch of votes decided one after another, each as `StoreRules.vote` decides it alone
/// against what the ones before it left: what to write for all of them together (a vote
/// taken back in the same batch writes nothing), and each question's count after them.
package struct VoteTally: Sendable {
  /// The live questions the batch names, by id.
  private let records: [String: VoteTarget]
  private var counted: Set<VotePair>
  /// Each question's count as the batch leaves it.
  package private(set) var votes: [String: Int]
  private var adding: [VotePair: Double] = [:]
  private var removing: Set<VotePair> = []

  package init(live: [VoteTarget], counted: Set<VotePair>) {
    records = Dictionary(live.map { ($0.id, $0) }) { first, _ in first }
    self.counted = counted
    votes = records.mapValues(\.votes)
  }

  /// Decides `request`: whether the attendee's vote counts after it, and why it was refused;
  /// `nil` when its question is not a live one.
  package mutating func apply(_ request: VoteRequest) -> (voted: Bool, refusal: String?)? {
    apply(request, as: VotePair(request))
  }

  /// The same, with the request's key made already (its ids as text, made once a vote).
  package mutating func apply(_ request: VoteRequest, as pair: VotePair)
    -> (voted: Bool, refusal: String?)?
  {
    guard let record = records[pair.question] else { return nil }
    let existing = counted.contains(pair)
    switch StoreRules.vote(on: record, by: request.attendee, up: request.up, existing: existing) {
    case .refuse(let reason): return (false, reason)
    case .unchanged: return (existing, nil)
    case .add:
      counted.insert(pair)
      votes[pair.question, default: 0] += 1
      if removing.remove(pair) == nil {
        adding[pair] = request.time.timeIntervalSinceReferenceDate
      }
      return (true, nil)
    case .remove:
      counted.remove(pair)
      votes[pair.question, default: 0] -= 1
      if adding.removeValue(forKey: pair) == nil { removing.insert(pair) }
      return (false, nil)
    }
  }

  /// Whether the attendee's vote counts once the batch is written.
  package func counts(_ pair: VotePair) -> Bool { counted.contains(pair) }

  /// The votes to insert, in key order (two instances writing the same rows lock them in the
  /// same order).
  package var added: [(pair: VotePair, at: Double)] {
    adding.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// The votes to delete, in key order.
  package var removed: [VotePair] { removing.sorted() }

  /// The questions whose count the batch changed, in id order, with their new counts.
  package var changed: [(id: String, votes: Int)] {
    records.keys.sorted().compactMap { id in
      guard let count = votes[id], count != records[id]?.votes else { return nil }
      return (id, count)
    }
  }
}
