import Foundation
import QnA

/// Extension `polls`: presenters' actions on polls (room actions, exactly once per token)
/// and attendees' answers (written together when they come together, like votes).
extension QuestionStore {
  /// `kind` on the poll `id` (`spec`: for `create` and `update`, checked already; `text`:
  /// an open text's entry, for `approve` and `dismiss`); a change goes to the room at once.
  public func pollAction(
    _ kind: PollActionKind, poll id: UUID, spec: PollSpec? = nil, text: String? = nil,
    token: UUID, at time: Date
  ) async throws(StoreError) -> RoomActionOutcome {
    try await roomAction(
      .poll(kind, id: id, spec: spec, text: text, at: time, session: session),
      "poll." + kind.rawValue, text: id.text, token: token, at: time)
  }

  /// An attendee's answer: counted once per token, one per attendee per poll; `nil` when the
  /// session has no such poll.
  /// `held`: an open text's answer the session reviews.
  public func answer(
    poll: UUID, attendee: UUID, value: PollValue, token: UUID, at time: Date, held: Bool = false
  ) async throws(StoreError) -> PollAnswerOutcome? {
    let outcome = try await timed {
      try await commits.pollAnswers.submit(
        PollAnswerRequest(
          attendee: attendee, poll: poll, token: token, value: value, time: time, held: held),
        session: session)
    }
    if let outcome, outcome.refusal == nil {
      // A word cloud's or an open text's results are a list: a second's wait gathers more.
      let listed = outcome.value?.words != nil || outcome.value?.text != nil
      roomChanged(listed ? .unhurried : .window)
    }
    return outcome
  }

  /// Every attendee's score over the session's closed quizzes, best first.
  public func quizScores() async throws(StoreError) -> [QuizScore] {
    let session = self.session
    return try await timed {
      try await driver.fetch(
        TransactionFlow<[PollRecord]>.pollRecords(session: session).then { records in
          .quizScores(session: session, polls: records)
        })
    }
  }

  /// Every open text's entries anyone gives, with their moderation, by poll (the export).
  public func textEntries() async throws(StoreError) -> [UUID: [PollTextEntry]] {
    let session = self.session
    return try await timed {
      try await driver.fetch(
        .rows(PollSQL.allTexts, [.integer(session)]) { rows in
          var entries: [UUID: [PollTextEntry]] = [:]
          for row in rows {
            guard let poll = row.text(0).flatMap(UUID.init(text:)), let text = row.text(1),
              let count = row.int(2), let state = row.text(3)
            else { continue }
            entries[poll, default: []].append(PollTextEntry(text: text, count: count, state: state))
          }
          return .done(entries)
        })
    }
  }

  /// A poll's state and when its time is up, read alone (no results); `nil`: no such poll.
  public func pollState(_ id: UUID) async throws(StoreError) -> (
    state: PollState, closesAt: Date?
  )? {
    try await timed {
      try await driver.fetch(
        .rows(PollSQL.byID, [.text(id.text)]) { rows in
          .done(
            rows.first.flatMap(PollRecord.init).map {
              ($0.state, $0.closesAt.map(Date.init(timeIntervalSinceReferenceDate:)))
            })
        })
    }
  }

  /// The session's open polls with a time limit, their rows alone (no results read): what
  /// a room watches when an instance first has it.
  public func openTimedPolls() async throws(StoreError) -> [UUID] {
    try await timed {
      try await driver.fetch(
        TransactionFlow<[PollRecord]>.pollRecords(session: session).then { records in
          .done(
            records.filter { $0.state == .open && $0.closesAt != nil }.compactMap {
              UUID(text: $0.id)
            })
        })
    }
  }

  /// The session's polls as presenters (or attendees) see them, with their results.
  public func polls(presenter: Bool = true) async throws(StoreError) -> [RoomPoll] {
    try await timed { try await driver.fetch(.polls(session: session, presenter: presenter)) }
  }
}

extension GroupCommit where Request == PollAnswerRequest, Outcome == PollAnswerOutcome? {
  /// Answers that come while a batch is written go together in the next, as votes do.
  package static func pollAnswers(on driver: any StoreDriver) -> GroupCommit {
    GroupCommit(batchLimit: 512, linger: StoreCommits.linger) { requests, session in
      do throws(StoreError) {
        return try await driver.transact(
          .pollAnswers(requests, session: session), writes: true, locking: session
        ).map { .success($0) }
      } catch {
        return requests.map { _ in .failure(error) }
      }
    }
  }
}
