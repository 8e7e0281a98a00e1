#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The session's polls as this client knows them (extension `polls`): each as the server
/// last said, this attendee's answers, and the answers typed and not answered yet. Bounded
/// whatever a hostile server sends.
public struct RoomPolls: Sendable, Equatable {
  public internal(set) var byID: [UUID: RoomPoll] = [:]
  /// Each poll's number, which results name it by.
  var numbers: [Int: UUID] = [:]
  /// This attendee's answers as the server last said.
  var answers: [UUID: PollValue] = [:]
  /// The room sequence number at which an answer's response settled this attendee's
  /// answer: an older snapshot does not undo it.
  var settledAt: [UUID: Int] = [:]
  /// Answers typed and not yet answered by the server, by poll: the latest wins.
  var pending: [UUID: PendingAnswer] = [:]
  /// What became of the latest answers, by token: `nil` counted, else why refused (the
  /// newest few hundred: for scripts that follow their answers).
  public internal(set) var verdicts: [UUID: String?] = [:]
  /// The verdicts' tokens, oldest first: the oldest goes when the newest comes past 256.
  var verdictOrder: [UUID] = []

  mutating func record(_ token: UUID, refusal: String?) {
    if verdicts.updateValue(refusal, forKey: token) == nil { verdictOrder.append(token) }
    if verdictOrder.count > 256 { verdicts[verdictOrder.removeFirst()] = nil }
  }

  /// Polls a room may hold, and the characters of text in each: a hostile server's endless
  /// polls are cut here.
  static let maxPolls = 2 * PollRules.maxPolls
  static let maxOptions = 4 * PollRules.maxOptions
  static let maxTextBytes = 64 * 1024
  /// A count a room could have (a billion answers).
  static let maxCount = 1_000_000_000

  struct PendingAnswer: Sendable, Equatable {
    var value: PollValue
    var token: UUID
    var sent = false
    var notBefore: Duration?
  }

  /// The polls, in the order presenters made them.
  public var ordered: [RoomPoll] { byID.values.sorted { $0.n < $1.n } }

  /// The open polls an attendee may answer now, in order.
  public var open: [RoomPoll] { ordered.filter { $0.pollState == .open } }

  /// This attendee's answer to `poll`: the one typed and on its way, else the server's.
  public func answer(to poll: UUID) -> PollValue? { pending[poll]?.value ?? answers[poll] }

  /// Whether an answer to `poll` is typed and not yet confirmed.
  public func isPending(_ poll: UUID) -> Bool { pending[poll] != nil }

  /// The answers the server has not answered yet, as a file keeps them between runs.
  public var kept: [KeptPollAnswer] {
    pending.map { KeptPollAnswer(poll: $0.key, value: $0.value.value, token: $0.value.token) }
      .sorted { $0.token.uuidString < $1.token.uuidString }
  }

  /// Whether a poll from the server fits the bounds.
  static func admissible(_ poll: RoomPoll) -> Bool {
    let options = poll.options ?? []
    let entries =
      (poll.results?.words ?? []) + (poll.results?.texts ?? []) + (poll.results?.review ?? [])
    let text =
      poll.prompt.utf8.count + options.reduce(0) { $0 + $1.utf8.count }
      + entries.reduce(0) { $0 + $1.text.utf8.count }
    let scale = poll.scale ?? PollScale(min: 1, max: 5)
    let counts =
      (poll.results?.counts ?? []) + entries.map(\.count) + [poll.results?.held ?? 0]
    let boardText = (poll.leaderboard ?? []).reduce(0) { $0 + ($1.name?.utf8.count ?? 0) }
    return options.count <= maxOptions && text + boardText <= maxTextBytes
      && (poll.results?.counts?.count ?? 0) <= PollRules.maxRating + 1
      && (poll.results?.words?.count ?? 0) <= 2 * PollRules.topWords
      && (poll.results?.texts?.count ?? 0) + (poll.results?.review?.count ?? 0)
        <= 4 * PollRules.topTexts
      // What the screens compute with stays far from overflowing: a scale in order, counts
      // and places a room could have.
      && scale.min <= scale.max && scale.min >= -1_000_000 && scale.max <= 1_000_000
      && (0...maxCount).contains(poll.results?.answers ?? 0)
      && counts.allSatisfy { (0...maxCount).contains($0) }
      && (poll.correct?.count ?? 0) <= maxOptions && (poll.leaderboard?.count ?? 0) <= 100
      && (poll.max ?? 0) >= 0
  }

  /// The whole set, from a snapshot as of `seq`.
  mutating func replace(with polls: [RoomPoll], seq: Int) {
    let before = answers
    byID = [:]
    numbers = [:]
    answers = [:]
    put(polls)
    // Its answers as of the snapshot, except those a response settled later.
    for id in byID.keys {
      if let settled = settledAt[id], settled > seq { answers[id] = before[id] }
    }
    settledAt = settledAt.filter { $0.value > seq }
  }

  /// Polls that changed, whole.
  mutating func put(_ polls: [RoomPoll]) {
    for var poll in polls where Self.admissible(poll) {
      guard byID[poll.id] != nil || byID.count < Self.maxPolls else { continue }
      // A reset since: the answer counted is gone (one typed meanwhile still goes).
      if let old = byID[poll.id], old.round != poll.round { answers[poll.id] = nil }
      if let mine = poll.mine { answers[poll.id] = mine }
      poll.mine = nil
      if let old = byID[poll.id], old.n != poll.n { numbers[old.n] = nil }
      byID[poll.id] = poll
      numbers[poll.n] = poll.id
    }
  }

  /// Results that moved, by number.
  mutating func update(_ results: [PollResults]) {
    for result in results {
      guard let n = result.n, let id = numbers[n], var poll = byID[id] else { continue }
      var counts = result
      counts.n = nil
      poll.results = counts
      guard Self.admissible(poll) else { continue }
      byID[id] = poll
    }
  }

  mutating func remove(_ ids: [UUID]) {
    for id in ids {
      guard let poll = byID.removeValue(forKey: id) else { continue }
      if numbers[poll.n] == id { numbers[poll.n] = nil }
      answers[id] = nil
      pending[id] = nil
    }
  }

  /// Extension `counts`: this attendee's answers after a compact snapshot, by number.
  mutating func own(_ mine: [PollMine], seq: Int) {
    for answer in mine {
      guard let id = numbers[answer.n] else { continue }
      if let settled = settledAt[id], settled > seq { continue }
      answers[id] = answer.value
    }
  }
}

/// An answer typed and not answered by the server yet: kept on disk like a vote, so that
/// quitting while offline loses none (its token makes a resend count once).
public struct KeptPollAnswer: Sendable, Hashable, Codable {
  public var poll: UUID
  public var value: PollValue
  public var token: UUID

  public init(poll: UUID, value: PollValue, token: UUID) {
    self.poll = poll
    self.value = value
    self.token = token
  }
}
