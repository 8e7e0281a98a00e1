import Foundation
import QnA
import QnAStore
import QnAStoreLocation
import TestSupport
import Testing

/// A vote storm, and the server killed -9 in the middle of it: every vote it answered is in
/// the database after the restart (`voteResponse` waits for the batch that holds the vote),
/// and none counts twice, not even when every attendee sends all its votes again to the
/// restarted server, as a client does for those it had no answer to.
@Suite("qna-server: a vote storm killed -9", .serialized)
struct VoteCrashTests {
  static let voterCount = 60
  static let questionCount = 20

  @Test func everyAnsweredVoteSurvivesAKillAndNoneCountsTwice() async throws {
    let directory = try TemporaryDirectory()
    let database = directory.path("storm.sqlite")
    // The defaults but the port: a server on a file, as a venue runs it. Its votes are read
    // on their sockets' event loops and written in lingering batches, as a storm's are.
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    let asker = try await RoomMember.join(port: server.port, as: UUID())
    var questions: [UUID] = []
    for number in 0..<Self.questionCount {
      questions.append(try await asker.socket.askedQuestion("Q\(number)", as: asker.connection))
    }
    var voters: [RoomMember] = []
    for _ in 0..<Self.voterCount {
      voters.append(try await RoomMember.join(port: server.port, as: UUID()))
    }
    var credentials: [UUID: UUID] = [:]
    for voter in voters { credentials[voter.attendee] = try await voter.credential() }
    // Every voter votes for every question, a question at a time across the room, while the
    // server dies once a few hundred are answered: some answered, some in a batch being
    // written, some not yet read, some not yet sent.
    let sending = Task {
      for question in questions {
        for voter in voters { try? await voter.vote(question) }
        try? await Task.sleep(for: .milliseconds(5))
      }
    }
    let total = Self.voterCount * Self.questionCount
    let deadline = ContinuousClock.now + .seconds(30)
    while Self.answered(voters).count < total / 4, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(1))
    }
    await server.kill9()
    let answered = Self.answered(voters)
    await sending.value
    #expect(answered.count >= total / 4, "some votes answered before the kill")
    #expect(answered.count < total, "the kill came in the middle of the storm")

    // What was answered is stored, each vote once.
    let holders = try await Self.stored(database, voters: voters, questions: questions)
    for voter in voters {
      for response in Self.answered([voter]) {
        #expect(
          holders.voted[voter.attendee]?.contains(response.question) == true,
          "an answered vote is in the database")
      }
    }
    print(
      "vote storm killed -9: \(answered.count) of \(total) votes answered before, "
        + "\(holders.rows) in the database after")

    // Restarted on the same file, every attendee comes back and sends every vote again.
    let restarted = try await QnAServerProcess(["--port", "0", "--db", database])
    var back: [RoomMember] = []
    for voter in voters {
      back.append(
        try await RoomMember.join(
          port: restarted.port, as: voter.attendee, credential: credentials[voter.attendee]))
    }
    for member in back { _ = try await member.joined() }
    var tokens: [(RoomMember, UUID)] = []
    for question in questions {
      for member in back {
        let token = UUID()
        try await member.vote(question, token: token)
        tokens.append((member, token))
      }
    }
    for (member, token) in tokens {
      let response = try await member.voteResponse(token)
      #expect(response.success && response.voted, "\(response.message ?? "")")
    }
    await restarted.kill9()
    let after = try await Self.stored(database, voters: voters, questions: questions)
    #expect(after.rows == total, "each attendee's vote once per question")
    for question in questions {
      #expect(after.counts[question] == Self.voterCount, "the count is the voters, once each")
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

  /// What the file holds: each voter's votes, how many vote rows, each question's count; the
  /// counts checked against the rows.
  static func stored(_ database: String, voters: [RoomMember], questions: [UUID]) async throws
    -> (voted: [UUID: Set<UUID>], rows: Int, counts: [UUID: Int])
  {
    let store = try StoreLocation.open(database)
    var voted: [UUID: Set<UUID>] = [:]
    var holders: [UUID: Int] = [:]
    for voter in voters {
      let questions = try await store.view(of: voter.attendee).voted
      voted[voter.attendee] = Set(questions)
      for question in questions { holders[question, default: 0] += 1 }
    }
    var counts: [UUID: Int] = [:]
    for question in questions {
      let votes = try #require(try await store.question(id: question)).votes
      #expect(votes == holders[question, default: 0], "each counted vote is one voter's row")
      counts[question] = votes
    }
    await store.close()
    return (voted, holders.values.reduce(0, +), counts)
  }
}
