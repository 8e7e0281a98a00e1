import Foundation
import QnA

/// Extension `polls`: presenters' actions on polls (room actions, exactly once per token)
/// and attendees' answers (written together when they come together, like votes).
extension QuestionStore {
  /// `kind` on the poll `id` (`spec`: for `create` and `update`, checked already); a change
  /// goes to the room at once.
  public func pollAction(
    _ kind: PollActionKind, poll id: UUID, spec: PollSpec? = nil, token: UUID, at time: Date
  ) async throws(StoreError) -> RoomActionOutcome {
    try await roomAction(
      .poll(kind, id: id, spec: spec, at: time, session: session), "poll." + kind.rawValue,
      text: id.uuidString, token: token, at: time)
  }

  /// An attendee's answer: counted once per token, one per attendee per poll; `nil` when the
  /// session has no such poll.
  public func answer(
    poll: UUID, attendee: UUID, value: PollValue, token: UUID, at time: Date
  ) async throws(StoreError) -> PollAnswerOutcome? {
    let outcome = try await timed {
      try await commits.pollAnswers.submit(
        PollAnswerRequest(attendee: attendee, poll: poll, token: token, value: value, time: time),
        session: session)
    }
    if let outcome, outcome.refusal == nil {
      roomChanged(outcome.value?.words != nil ? .unhurried : .window)
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

  /// The session's polls as presenters (or attendees) see them, with their results.
  public func polls(presenter: Bool = true) async throws(StoreError) -> [RoomPoll] {
    try await timed { try await driver.fetch(.polls(session: session, presenter: presenter)) }
  }
}

extension GroupCommit where Request == PollAnswerRequest, Outcome == PollAnswerOutcome? {
  /// Answers that come while a batch is written go together in the next, as votes do.
  package static func pollAnswers(on driver: any StoreDriver) -> GroupCommit {
    GroupCommit(batchLimit: 512) { requests, session in
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
