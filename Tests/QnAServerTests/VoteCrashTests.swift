import Foundation
import QnA
import QnAStore
import QnAStoreLocation
import TestSupport
import Testing

/// A vote storm, and the server killed -9 in the middle of it: every vote it answered is in
/// the database after the restart (`voteResponse` waits for the batch that holds the vote),
/// and none counts twice.
@Suite("qna-server: a vote storm killed -9", .serialized)
struct VoteCrashTests {
  @Test func everyAnsweredVoteSurvivesAKillAndNoneCountsTwice() async throws {
    let directory = try TemporaryDirectory()
    let database = directory.path("storm.sqlite")
    // The defaults but the port: a server on a file, as a venue runs it.
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    let asker = try await RoomMember.join(port: server.port, as: UUID())
    var questions: [UUID] = []
    for number in 0..<5 {
      questions.append(try await asker.socket.askedQuestion("Q\(number)", as: asker.connection))
    }
    var voters: [RoomMember] = []
    for _ in 0..<60 { voters.append(try await RoomMember.join(port: server.port, as: UUID())) }
    for voter in voters { _ = try await voter.joined() }
    // Every voter votes for every question at once; the server dies once some are answered.
    var voterOf: [UUID: UUID] = [:]
    for voter in voters {
      for question in questions {
        let token = UUID()
        voterOf[token] = voter.attendee
        try await voter.vote(question, token: token)
      }
    }
    let deadline = ContinuousClock.now + .seconds(20)
    while Self.answered(voters).count < 40, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(2))
    }
    await server.kill9()
    let answered = Self.answered(voters)
    #expect(answered.count >= 40, "some votes answered before the kill")

    let store = try StoreLocation.open(database)
    defer { Task { await store.close() } }
    var holders: [UUID: Int] = [:]
    for voter in voters {
      let voted = try await store.view(of: voter.attendee).voted
      for question in voted { holders[question, default: 0] += 1 }
      for response in answered where voterOf[response.token] == voter.attendee {
        #expect(voted.contains(response.question), "an answered vote is in the database")
      }
    }
    print(
      "vote storm killed -9: \(answered.count) of \(voterOf.count) votes answered before, "
        + "\(holders.values.reduce(0, +)) in the database after")
    for question in questions {
      let votes = try #require(try await store.question(id: question)).votes
      #expect(votes == holders[question, default: 0], "each counted vote is one voter's row")
      #expect(votes <= voters.count)
    }
  }

  /// The votes answered as counted, so far, over every voter's socket.
  static func answered(_ voters: [RoomMember]) -> [VoteResponse] {
    voters.flatMap { voter in
      voter.socket.messages.compactMap { message -> VoteResponse? in
        guard case .voteResponse(let response)? = try? message.get(), response.success else {
          return nil
        }
        return response
      }
    }
  }
}
