import Foundation
import QnA

/// The room's side of the store: attendees, votes, the question being answered, and the log
/// of what changed, whose sequence numbers attendees catch up from. Each change and its log
/// row commit together, so no attendee can see one without the other.
///
/// The log is one sequence for every session: a session's numbers increase but skip the
/// other sessions' (clients only ever compare them). It is never pruned, so it always reaches
/// back to a client's number.
extension QuestionStore {
  /// This session's room, as opposed to another's whose numbers happen to match.
  public func roomEpoch() async throws(StoreError) -> UUID {
    let values = try await timed {
      try await driver.fetch(.roomState(["epoch"], session: session))
    }
    return values[0].flatMap(UUID.init(text:)) ?? UUID()
  }

  /// The session's last sequence number (0 for a room where nothing happened yet).
  public func currentSeq() async throws(StoreError) -> Int {
    try await timed { try await driver.fetch(.currentSeq(session: session)) }
  }

  /// Records the attendee (and its name, which may change) in this session.
  public func join(attendee: UUID, name: String?, at time: Date) async throws(StoreError) {
    try await timed {
      try await driver.perform(.join(attendee: attendee, name: name, at: time, session: session))
    }
  }

  /// Claims `attendee` for a join (extension `identity`, `StoreRules.claim`), in one
  /// transaction: proved with its credential, issued again the one it has while no join has
  /// proved it, or given `mint` as its credential when it has none yet (`nil`: not now, the
  /// caller's minting budget is spent). The name is recorded on `proved` and `issued` only.
  /// Claims made at once share their transaction (`GroupCommit`): one durable write for a
  /// crowd of first joins.
  public func claim(
    attendee: UUID, credential: UUID?, mint: UUID?, name: String?, at time: Date
  ) async throws(StoreError) -> AttendeeClaim {
    let request = ClaimRequest(
      attendee: attendee, credential: credential, mint: mint, name: name, time: time)
    return try await timed {
      try await commits.claims.submit(request, session: session)
    }
  }

  /// The attendee's own questions and votes, to lay over the room everyone sees.
  public func view(of attendee: UUID, presenter: Bool = false) async throws(StoreError)
    -> AttendeeView
  {
    try await timed {
      try await driver.fetch(.view(of: attendee, presenter: presenter, session: session))
    }
  }

  public struct VoteOutcome: Sendable {
    public var voted: Bool
    public var votes: Int
    /// The room's sequence number this count is as of.
    public var seq: Int
    /// Why it was refused, when it was.
    public var refusal: String?

    package init(voted: Bool, votes: Int, seq: Int, refusal: String? = nil) {
      self.voted = voted
      self.votes = votes
      self.seq = seq
      self.refusal = refusal
    }
  }

  /// One vote per attendee per question (`StoreRules.vote`): sending it again changes
  /// nothing. Votes made at once share their transaction (`GroupCommit`), and each is
  /// answered once its batch is written. `nil`: no such question, or one in review or
  /// dismissed.
  public func vote(attendee: UUID, question: UUID, up: Bool, at time: Date)
    async throws(StoreError) -> VoteOutcome?
  {
    guard commits.votes == nil else {
      // Batched: as a vote read on an event loop is, answered here instead of there.
      return try await withCheckedContinuation { continuation in
        vote(attendee: attendee, question: question, up: up, at: time) {
          continuation.resume(returning: $0)
        }
      }.get()
    }
    // The benchmarks' baseline: each vote a transaction of its own.
    let outcome = try await timed {
      try await driver.transact(
        .vote(attendee: attendee, question: question, up: up, at: time, session: session),
        writes: true, locking: session)
    }
    if let outcome, outcome.refusal == nil { roomChanged(.window) }
    return outcome
  }

  /// `vote(attendee:question:up:at:)` answered through `reply` once its batch is written,
  /// on the thread that wrote it, so that a vote read on an event loop needs no task.
  public func vote(
    attendee: UUID, question: UUID, up: Bool, at time: Date,
    reply: @escaping @Sendable (Result<VoteOutcome?, StoreError>) -> Void
  ) {
    guard let votes = commits.votes else {
      // The benchmarks' baseline: each vote a transaction of its own.
      Task {
        do throws(StoreError) {
          reply(.success(try await vote(attendee: attendee, question: question, up: up, at: time)))
        } catch {
          reply(.failure(error))
        }
      }
      return
    }
    let started = ContinuousClock.now
    votes.submit(
      VoteRequest(attendee: attendee, question: question, up: up, time: time), session: session
    ) { [self] outcome in
      timing(ContinuousClock.now - started)
      if case .success(let outcome?) = outcome, outcome.refusal == nil { roomChanged(.committed) }
      reply(outcome)
    }
  }

  /// The room's broadcasts are `interval` apart now: a storm's batches of votes linger as
  /// long, so that each broadcast follows the commit it carries (`StoreCommits.votesLinger`).
  public func spaceVoteCommits(_ interval: Duration) {
    commits.votes?.linger(interval, session: session)
  }

  /// The question being answered now.
  public func highlighted() async throws(StoreError) -> UUID? {
    try await timed { try await driver.fetch(.roomState(session: session)) }.highlighted
  }

  /// The whole room for one attendee (`nil`: as anyone sees it, nobody's questions mine) as of
  /// the log's last sequence number (`StoreRules.room`), and the question being answered.
  public func snapshot(for attendee: UUID?, presenter: Bool = false) async throws(StoreError)
    -> StoredRoomSnapshot
  {
    try await timed {
      try await driver.fetch(.snapshot(for: attendee, presenter: presenter, session: session))
    }
  }

  /// What changed after sequence `after`, up to `upTo` (`StoreRules.delta`): the current
  /// state of each question that changed, and the question being answered if that changed.
  public func changes(after: Int, upTo: Int, presenter: Bool = false) async throws(StoreError)
    -> RoomChanges
  {
    try await timed {
      try await driver.fetch(
        .changes(after: after, upTo: upTo, presenter: presenter, session: session))
    }
  }

  /// Mock: many questions at once, each from an attendee of its own, in one transaction.
  public func seed(_ questions: [StoredQuestion]) async throws(StoreError) {
    try await timed {
      try await driver.transact(.seed(questions, session: session), writes: true, locking: session)
    }
    roomChanged(.window)
  }

  /// Mock: `count` votes for `question` from attendees who never voted before, in one
  /// transaction. `nil`: no such question.
  public func simulateVotes(
    for question: UUID, count: Int, at time: Date, makeID: @escaping @Sendable () -> UUID
  ) async throws(StoreError) -> Int? {
    let counted = try await timed {
      try await driver.transact(
        .simulateVotes(for: question, count: count, at: time, makeID: makeID, session: session),
        writes: true, locking: session)
    }
    if counted != nil { roomChanged(.window) }
    return counted
  }

  /// Every question in every state, oldest first, with its asker's name.
  public func export() async throws(StoreError) -> [ExportedQuestion] {
    try await timed { try await driver.fetch(.export(session: session)) }
  }
}

extension StoredQuestion {
  /// As the room shows it: content, votes and state, nothing about who asked (presenters
  /// get the asker's name); a private answer for its asker and presenters only.
  package func roomQuestion(presenter: Bool, asker: Bool, names: [UUID: String] = [:])
    -> RoomQuestion
  {
    let answerShown = presenter || asker || !answerPrivate
    var shown = RoomQuestion(
      id: id, content: content, votes: votes, answered: answered, createdAt: createdAt,
      state: publicState, answer: answerShown ? answer : nil,
      isPrivate: answerShown && answer != nil && answerPrivate ? true : nil,
      name: presenter ? attendee.flatMap { names[$0] } : nil)
    if presenter, !flagged.isEmpty { shown.flagged = flagged }
    if original != nil { shown.edited = true }
    if presenter, starred { shown.starred = true }
    shown.label = label
    return shown
  }
}

extension Array {
  package var nilIfEmpty: Self? { isEmpty ? nil : self }
}
