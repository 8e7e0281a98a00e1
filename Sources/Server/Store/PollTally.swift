import Foundation
import QnA

/// One answer to a poll, as the store batches it (`GroupCommit`).
package struct PollAnswerRequest: Sendable {
  package var attendee: UUID
  package var poll: UUID
  package var token: UUID
  package var value: PollValue
  package var time: Date
  /// An open text's answer the session reviews (its moderation, its word filter): an entry
  /// first given by it waits for presenters.
  package var held: Bool

  package init(
    attendee: UUID, poll: UUID, token: UUID, value: PollValue, time: Date, held: Bool = false
  ) {
    self.attendee = attendee
    self.poll = poll
    self.token = token
    self.value = value
    self.time = time
    self.held = held
  }
}

/// Where an answer stands: the answer the poll counts for the attendee now, as of `seq`, or
/// why it was refused.
public struct PollAnswerOutcome: Sendable, Equatable {
  public var value: PollValue?
  public var seq: Int
  public var refusal: String?

  package init(value: PollValue?, seq: Int, refusal: String? = nil) {
    self.value = value
    self.seq = seq
    self.refusal = refusal
  }
}

/// An attendee's answer to a poll, as the answer table keys it.
package struct PollAnswerKey: Sendable, Hashable, Comparable {
  package var poll: String
  package var attendee: String

  package static func < (left: PollAnswerKey, right: PollAnswerKey) -> Bool {
    (left.poll, left.attendee) < (right.poll, right.attendee)
  }
}

/// A batch of answers decided one after another, each against what the ones before it left:
/// which answers to write (the last of each attendee's for each poll) and by how much each
/// count moves (the old answer's weights off, the new one's on: counts as counts, never
/// counted again from the answers).
package struct PollTally: Sendable {
  private let polls: [String: PollRecord]
  /// An answer's most recent tokens kept: a resend of any of them (an older answer's, arriving
  /// after a newer one from a socket that reconnected late) is not counted again.
  static let recentTokens = 8

  /// Each attendee's answer as the batch leaves it, with its recent tokens (newest first,
  /// spaces between, as the answer's row keeps them).
  private var answers: [PollAnswerKey: (value: PollValue, token: String)]
  private var written: [PollAnswerKey: (value: PollValue, token: String, at: Double)] = [:]
  private var moves: [String: [String: Int]] = [:]
  /// Open text entries the batch gives, by poll and text: the state one takes if it is new.
  private var texts: [String: [String: (state: PollTextState, at: Double)]] = [:]

  package init(polls: [PollRecord], answers: [PollAnswerKey: (value: PollValue, token: String)]) {
    self.polls = Dictionary(polls.map { ($0.id, $0) }) { first, _ in first }
    self.answers = answers
  }

  /// Decides `request`: the answer counted for its attendee after it, or why it was refused;
  /// `nil` when there is no such poll.
  package mutating func apply(_ request: PollAnswerRequest) -> (
    value: PollValue?, refusal: String?
  )? {
    let key = PollAnswerKey(poll: request.poll.text, attendee: request.attendee.text)
    guard let poll = polls[key.poll] else { return nil }
    let before = answers[key]
    let token = request.token.text
    // The same answer again (a resend after a reconnect), or an older one: counted once, and
    // never over a newer answer.
    let recent = before.map { $0.token.split(separator: " ").map(String.init) } ?? []
    if recent.contains(token) { return (before?.value, nil) }
    guard poll.takesAnswers(at: request.time) else {
      return (
        before?.value, poll.state == .open ? "Time is up for that poll." : "That poll is closed."
      )
    }
    let value: PollValue
    switch PollRules.accepted(request.value, for: poll.spec, fold: PollWords.fold) {
    case .failure(let refused): return (before?.value, refused.message)
    case .success(var accepted):
      accepted.text = accepted.text.map(PollWords.composed)
      value = accepted
    }
    var move = moves[key.poll, default: [:]]
    if let old = before?.value {
      for (countKey, weight) in PollRules.weights(of: old, for: poll.spec) {
        move[countKey, default: 0] -= weight
      }
    }
    for (countKey, weight) in PollRules.weights(of: value, for: poll.spec) {
      move[countKey, default: 0] += weight
    }
    moves[key.poll] = move
    if let text = value.text, texts[key.poll]?[text] == nil {
      texts[key.poll, default: [:]][text] = (
        request.held ? .review : .live, request.time.timeIntervalSinceReferenceDate
      )
    }
    let tokens = ([token] + recent).prefix(Self.recentTokens).joined(separator: " ")
    answers[key] = (value, tokens)
    written[key] = (value, tokens, request.time.timeIntervalSinceReferenceDate)
    return (value, nil)
  }

  /// The answers to write, in key order (two instances lock rows in the same order).
  package var changedAnswers: [[SQLValue]] {
    written.sorted { $0.key < $1.key }.map { key, answer in
      [
        .text(key.poll), .text(key.attendee), .text(PollCodec.text(answer.value)),
        .text(answer.token), .real(answer.at),
      ]
    }
  }

  /// Each count's move, in key order, those that cancelled out left out.
  package var countMoves: [[SQLValue]] {
    moves.keys.sorted().flatMap { poll in
      moves[poll, default: [:]].filter { $0.value != 0 }.sorted { $0.key < $1.key }.map {
        [.text(poll), .text($0.key), .integer(Int64($0.value))]
      }
    }
  }

  /// Open text entries given in the batch, in key order: written where they are new.
  package var givenTexts: [[SQLValue]] {
    texts.keys.sorted().flatMap { poll in
      texts[poll, default: [:]].sorted { $0.key < $1.key }.map {
        [.text(poll), .text($0.key), .text($0.value.state.rawValue), .real($0.value.at)]
      }
    }
  }

  /// Open text entries an answer moved away from, in key order: gone unless someone still
  /// gives them (`PollSQL.releaseTexts`).
  package var leftTexts: [[SQLValue]] {
    moves.keys.sorted().filter { polls[$0]?.spec.kind == .text }.flatMap { poll in
      moves[poll, default: [:]].filter { $0.key != PollRules.answersKey && $0.value < 0 }
        .keys.sorted().map { [.text(poll), .text($0)] }
    }
  }

  /// The polls whose counts moved, in id order.
  package var changedPolls: [String] {
    moves.keys.sorted().filter { moves[$0]?.values.contains { $0 != 0 } == true }
  }
}
