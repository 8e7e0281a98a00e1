/// The store's group commits (`GroupCommit`), shared by every session's view of one database:
/// joins' claims, and votes.
package struct StoreCommits: Sendable {
  package let claims: GroupCommit<ClaimRequest, AttendeeClaim>
  /// `nil`: each vote in a transaction of its own, as before votes were batched (a
  /// benchmark's baseline, `StoreOptions.votesOneByOne`).
  package let votes: GroupCommit<VoteRequest, QuestionStore.VoteOutcome?>?
  /// Extension `polls`: attendees' answers.
  package let pollAnswers: GroupCommit<PollAnswerRequest, PollAnswerOutcome?>

  /// How long a storm's next batch of poll answers waits for more (`GroupCommit.linger`):
  /// an answer's reply a few milliseconds later, for a fraction of the commits.
  package static let linger: Duration = .milliseconds(15)
  /// How long a storm's next batch of votes waits for more: the room's default window
  /// (`ServerConfiguration.roomWindow`; a server with another window sets its own through
  /// `StoreOptions.votesLinger`), so that a storm writes one batch a window and the
  /// broadcast it wakes follows it: a linger out of step with the window left commits just
  /// after broadcasts (150 ms windows, a linger of 100: p99 294 ms against 157 at 100). A
  /// voter's screen changes only with a broadcast, so its vote → screen time stays as it was
  /// (at 2,000 attendees: p99 152–154 ms against 151–154 with 15 ms) for a sixth less CPU a
  /// vote; its own answer comes up to a window later. A vote after a quiet spell is written
  /// at once, as ever.
  package static let votesLinger: Duration = .milliseconds(100)

  package init(driver: any StoreDriver, options: StoreOptions = StoreOptions()) {
    claims = .claims(on: driver)
    votes = options.votesOneByOne ? nil : .votes(on: driver, linger: options.votesLinger)
    pollAnswers = .pollAnswers(on: driver)
  }
}

extension GroupCommit where Request == VoteRequest, Outcome == QuestionStore.VoteOutcome? {
  /// Votes that come while a batch is written go together in the next: a storm of them is a
  /// transaction, and a durable write, per batch. A batch that fails fails each of its votes
  /// (their clients send them again): a vote fails only as the database does.
  package static func votes(
    on driver: any StoreDriver, linger: Duration = StoreCommits.votesLinger
  ) -> GroupCommit {
    // Early only when full: a storm's batch is a window's votes.
    GroupCommit(batchLimit: 512, linger: linger, fullBatch: 512) {
      requests, session in
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
