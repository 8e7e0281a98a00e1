import Foundation
import QnA
import QnAStore
import TestSupport
import Testing

/// Votes written together (`GroupCommit`), on SQLite and PostgreSQL, through two stores on
/// one database (two instances): each decided as if alone, each answered with a count that
/// is its question's at the sequence number it names, and every vote counted once.
@Suite("qna-server: votes written together, on SQLite and PostgreSQL", .serialized)
struct VoteCommitStoreTests {
  @Test(arguments: StoreKind.allCases)
  func aStormOfVotesIsCountedOnceEachAndEachAnswerAgreesWithItsNumber(_ kind: StoreKind)
    async throws
  {
    let stores = try await kind.stores(count: 2)
    defer { stores.close() }
    let asker = uuid(1, group: 0xA5)
    let (popular, contested) = (uuid(1), uuid(2))
    for id in [popular, contested] {
      _ = try await stores[0].insert(
        StoredQuestion(
          id: id, content: "Vote", askedFrom: uuid(1), createdAt: Date(), attendee: asker))
    }
    let voters = (0..<200).map { uuid($0, group: 0xB5) }
    typealias Answer = (question: UUID, outcome: QuestionStore.VoteOutcome?)
    let answers = try await withThrowingTaskGroup(of: [Answer].self) { group in
      for (index, voter) in voters.enumerated() {
        let store = stores[index % 2]
        group.addTask {
          var answers: [Answer] = []
          // Every voter for the popular one, twice (the second changes nothing); every
          // fourth for the contested one, then back.
          for _ in 0..<2 {
            answers.append(
              (
                popular,
                try await store.vote(attendee: voter, question: popular, up: true, at: Date())
              ))
          }
          if index % 4 == 0 {
            for up in [true, false] {
              answers.append(
                (
                  contested,
                  try await store.vote(attendee: voter, question: contested, up: up, at: Date())
                ))
            }
          }
          return answers
        }
      }
      group.addTask {
        [
          (
            popular,
            try await stores[1].vote(attendee: asker, question: popular, up: true, at: Date())
          )
        ]
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    let own = answers.last { $0.outcome?.refusal != nil }
    #expect(own?.question == popular && own?.outcome?.voted == false, "one's own question")
    let counted = answers.filter { $0.question == popular && $0.outcome?.refusal == nil }
    #expect(counted.count == voters.count * 2 && counted.allSatisfy { $0.outcome?.voted == true })
    // The popular question only gains votes: ordered by the numbers they name, the counts the
    // answers carry never go down, and the last is every voter's.
    let bySeq = counted.compactMap(\.outcome).sorted { $0.seq < $1.seq }
    #expect(zip(bySeq, bySeq.dropFirst()).allSatisfy { $0.votes <= $1.votes })
    #expect(bySeq.last?.votes == voters.count)
    #expect(try await stores[1].question(id: popular)?.votes == voters.count)
    #expect(try await stores[0].question(id: contested)?.votes == 0)
    // Each voter's own view agrees: voted for the popular one, not the contested one.
    let view = try await stores[1].view(of: voters[0])
    #expect(view.voted == [popular])
  }

  /// A question in review or dismissed is no question to a voter, in a batch as alone.
  @Test(arguments: StoreKind.allCases)
  func aVoteForAQuestionNotLiveIsNone(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    _ = try await stores[0].insert(
      StoredQuestion(
        id: uuid(1), content: "Review", askedFrom: uuid(1), createdAt: Date(), state: .review))
    let outcomes = try await withThrowingTaskGroup(of: QuestionStore.VoteOutcome?.self) { group in
      for voter in 0..<20 {
        group.addTask {
          try await stores[0].vote(
            attendee: uuid(voter, group: 0xB6), question: uuid(voter % 2 == 0 ? 1 : 9), up: true,
            at: Date())
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.count == 20 && outcomes.allSatisfy { $0 == nil })
  }

  /// One attendee on two devices, up on one and down on the other, in one batch: both are
  /// answered as the batch leaves the vote, not counted, with the count that agrees.
  @Test(arguments: StoreKind.allCases)
  func eachAnswerInABatchIsAsTheBatchLeavesTheVote(_ kind: StoreKind) async throws {
    let stores = try await kind.stores()
    defer { stores.close() }
    let store = stores[0]
    _ = try await store.insert(
      StoredQuestion(id: uuid(1), content: "Vote", askedFrom: uuid(1), createdAt: Date()))
    let voter = uuid(1, group: 0xB7)
    let outcomes = try await store.driver.transact(
      .votes(
        [true, false].map {
          VoteRequest(attendee: voter, question: uuid(1), up: $0, time: Date())
        }, session: store.session), writes: true, locking: store.session)
    #expect(outcomes.map { $0?.voted } == [false, false])
    #expect(outcomes.map { $0?.votes } == [0, 0])
    #expect(try await store.question(id: uuid(1))?.votes == 0)
  }
}
