import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// A batch of votes decided one after another (`VoteTally`), without a database: each as
/// `StoreRules.vote` decides it alone, and only the net change written.
@Suite("The store's rules: a batch of votes")
struct VoteTallyTests {
  typealias Rules = StoreRulesTests
  static let carol = uuid(3, group: 0x5A)

  static func vote(_ attendee: UUID, up: Bool = true, on question: UUID = Rules.question)
    -> VoteRequest
  {
    VoteRequest(
      attendee: attendee, question: question, up: up,
      time: Date(timeIntervalSinceReferenceDate: 10))
  }

  static func pair(_ attendee: UUID) -> VotePair {
    VotePair(attendee: attendee.uuidString, question: Rules.question.uuidString)
  }

  @Test func eachVoteIsDecidedAfterTheOnesBeforeIt() {
    var tally = VoteTally(live: [Rules.record().voteTarget], counted: [])
    #expect(tally.apply(Self.vote(Rules.bob))! == (true, nil))
    #expect(tally.apply(Self.vote(Rules.bob))! == (true, nil), "sent again: unchanged, counted")
    #expect(tally.apply(Self.vote(Self.carol))! == (true, nil))
    let own = tally.apply(Self.vote(Rules.alice))
    #expect(own?.voted == false && own?.refusal != nil, "one's own question")
    #expect(tally.apply(Self.vote(Rules.bob, on: uuid(99))) == nil, "no such live question")
    #expect(tally.votes[Rules.question.uuidString] == 2)
    #expect(tally.added.map(\.pair) == [Self.pair(Rules.bob), Self.pair(Self.carol)].sorted())
    #expect(tally.removed.isEmpty)
    #expect(tally.changed.map(\.votes) == [2])
  }

  @Test func aVoteTakenBackInTheSameBatchWritesNothing() {
    var record = Rules.record()
    record.votes = 1
    var tally = VoteTally(live: [record.voteTarget], counted: [Self.pair(Self.carol)])
    #expect(tally.apply(Self.vote(Rules.bob))! == (true, nil))
    #expect(tally.apply(Self.vote(Rules.bob, up: false))! == (false, nil))
    // Carol's stored vote, taken back and given again: the row stays as it is.
    #expect(tally.apply(Self.vote(Self.carol, up: false))! == (false, nil))
    #expect(tally.apply(Self.vote(Self.carol))! == (true, nil))
    #expect(tally.added.isEmpty && tally.removed.isEmpty)
    #expect(tally.changed.isEmpty, "the count is what it was: no write, no log row")
    #expect(tally.votes[Rules.question.uuidString] == 1)
  }

  @Test func aStoredVoteTakenBackIsRemoved() {
    var record = Rules.record()
    record.votes = 1
    var tally = VoteTally(live: [record.voteTarget], counted: [Self.pair(Self.carol)])
    #expect(tally.apply(Self.vote(Self.carol, up: false))! == (false, nil))
    #expect(tally.removed == [Self.pair(Self.carol)])
    #expect(tally.changed.map(\.votes) == [0])
  }

  @Test func anAnsweredQuestionTakesNoNewVoteButGivesOneBack() {
    var record = Rules.record(answered: true)
    record.votes = 1
    var tally = VoteTally(live: [record.voteTarget], counted: [Self.pair(Self.carol)])
    #expect(tally.apply(Self.vote(Rules.bob))?.refusal != nil)
    #expect(tally.apply(Self.vote(Self.carol, up: false))! == (false, nil))
    #expect(tally.votes[Rules.question.uuidString] == 0)
  }
}
