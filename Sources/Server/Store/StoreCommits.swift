/// The store's group commits (`GroupCommit`), shared by every session's view of one database:
/// joins' claims, and votes.
package struct StoreCommits: Sendable {
  package let claims: GroupCommit<ClaimRequest, AttendeeClaim>
  /// `nil`: each vote in a transaction of its own, as before votes were batched (a
  /// benchmark's baseline, `StoreOptions.votesOneByOne`).
  package let votes: GroupCommit<VoteRequest, QuestionStore.VoteOutcome?>?
  /// Extension `polls`: attendees' answers.
  package let pollAnswers: GroupCommit<PollAnswerRequest, PollAnswerOutcome?>

  /// How long a storm's next batch of votes or poll answers waits for more
  /// (`GroupCommit.linger`): a vote's answer a few milliseconds later, against its delta's
  /// 100 ms window, for a fraction of the commits.
  package static let linger: Duration = .milliseconds(15)

  package init(driver: any StoreDriver, votesOneByOne: Bool = false) {
    claims = .claims(on: driver)
    votes = votesOneByOne ? nil : .votes(on: driver)
    pollAnswers = .pollAnswers(on: driver)
  }
}

extension GroupCommit where Request == VoteRequest, Outcome == QuestionStore.VoteOutcome? {
  /// Votes that come while a batch is written go together in the next: a storm of them is a
  /// transaction, and a durable write, per batch. A batch that fails fails each of its votes
  /// (their clients send them again): a vote fails only as the database does.
  package static func votes(on driver: any StoreDriver) -> GroupCommit {
    GroupCommit(batchLimit: 512, linger: StoreCommits.linger) { requests, session in
      do throws(StoreError) {
        return try await driver.transact(
          .votes(requests, session: session), writes: true, locking: session
        ).map { .success($0) }
      } catch {
        return requests.map { _ in .failure(error) }
      }
    }
  }
}
