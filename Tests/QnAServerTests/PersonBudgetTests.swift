import Foundation
import QnA
import QnAServer
import TestSupport
import Testing
import WebSocketClient

/// Questions and votes per attendee, not per socket, on the default limits: the review's 25
/// sockets from one address, none joined, stored 500 questions in half a second; one person's
/// sockets now ask what one person may. The address is a forwarded one (loopback is not
/// counted per address), behind `--trusted-proxy`.
@Suite("qna-server: limits per attendee, not per socket", .serialized)
struct PersonBudgetTests {
  static func behind(_ address: String) -> ClientConfiguration {
    var configuration = ClientConfiguration(pingInterval: nil)
    configuration.handshake.extraHeaders.append(name: "X-Forwarded-For", value: address)
    return configuration
  }

  @Test func socketsWithoutAnIdentityShareOneAttendeesQuestions() async throws {
    let defaults = ServerConfiguration()
    let server = try await ServerUnderTest { $0.trustedProxies = ["127.0.0.1"] }
    defer { Task { await server.stop() } }
    var sockets: [(Attendee, UUID)] = []
    for _ in 0..<25 {
      let socket = try Attendee(server.socketURL, configuration: Self.behind("203.0.113.20"))
      sockets.append((socket, try await socket.handshake()))
    }
    let started = ContinuousClock.now
    for round in 0..<4 {
      for (socket, id) in sockets { try await socket.ask("r\(round)", as: id, token: UUID()) }
    }
    var stored = 0
    for (socket, _) in sockets {
      for index in 0..<4 where try await socket.response(occurrence: index).success {
        stored += 1
      }
    }
    // One attendee's burst, and the refill while the 100 questions went out.
    let refill =
      Int(
        (ContinuousClock.now - started) / defaults.rateWindow * Double(defaults.rateLimit)) + 1
    #expect(stored >= defaults.rateLimit && stored <= defaults.rateLimit + refill, "\(stored)")
    // Another address is someone else.
    let other = try Attendee(server.socketURL, configuration: Self.behind("198.51.100.7"))
    try await other.ask("mine", as: try await other.handshake(), token: UUID())
    #expect(try await other.response().success)
  }

  @Test func anAttendeesSocketsShareItsQuestionsAndVotes() async throws {
    let defaults = ServerConfiguration()
    let server = try await ServerUnderTest { $0.trustedProxies = ["127.0.0.1"] }
    defer { Task { await server.stop() } }
    let configuration = Self.behind("203.0.113.21")
    let attendee = UUID()
    let first = try await RoomMember.join(server, as: attendee, configuration: configuration)
    let credential = try await first.credential()
    let second = try await RoomMember.join(
      server, as: attendee, credential: credential, configuration: configuration)
    #expect(try await second.joined().attendee == attendee)
    // Questions: both sockets together get one attendee's burst.
    let started = ContinuousClock.now
    var tokens: [(RoomMember, UUID)] = []
    for index in 0..<defaults.rateLimit {
      let member = index.isMultiple(of: 2) ? first : second
      let token = UUID()
      try await member.socket.ask("q\(index)", as: member.connection, token: token)
      tokens.append((member, token))
    }
    for member in [first, second] {
      let token = UUID()
      try await member.socket.ask("one more", as: member.connection, token: token)
      tokens.append((member, token))
    }
    var refused = 0
    for (member, token) in tokens {
      let message = try await member.socket.waitForMessage("questionResponse") {
        if case .questionResponse(let response) = $0 { response.token == token } else { false }
      }
      if case .questionResponse(let response) = message, !response.success { refused += 1 }
    }
    let refill = Int(
      (ContinuousClock.now - started) / defaults.rateWindow * Double(defaults.rateLimit))
    #expect(refused >= 2 - refill, "two past the burst of the two sockets together: \(refused)")

    // Votes: others' questions (three askers, each within its own limit), voted through
    // both sockets in turn.
    var questions: [UUID] = []
    for asker in 0..<3 {
      let member = try await RoomMember.join(
        server, as: UUID(), configuration: Self.behind("198.51.100.\(10 + asker)"))
      _ = try await member.joined()
      for index in 0..<18 {
        questions.append(
          try await member.socket.askedQuestion("v\(asker)-\(index)", as: member.connection))
      }
    }
    let voting = ContinuousClock.now
    var voteTokens: [(RoomMember, UUID)] = []
    for (index, question) in questions.enumerated() {
      let member = index.isMultiple(of: 2) ? first : second
      let token = UUID()
      try await member.vote(question, token: token)
      voteTokens.append((member, token))
    }
    var counted = 0
    for (member, token) in voteTokens where try await member.voteResponse(token).success {
      counted += 1
    }
    let voteRefill =
      Int(
        (ContinuousClock.now - voting) / defaults.rateWindow * Double(defaults.voteRateLimit)) + 1
    #expect(
      counted >= defaults.voteRateLimit && counted <= defaults.voteRateLimit + voteRefill,
      "\(counted) votes of \(questions.count)")
  }
}
