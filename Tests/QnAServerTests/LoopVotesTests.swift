import Foundation
import QnA
import RFC6455
import TestSupport
import Testing

/// Votes read on their socket's event loop (`LoopVotes`), and those left to the socket's task:
/// the same answers, in the order their messages came.
@Suite("qna-server: votes read where their frames are read", .serialized)
struct LoopVotesTests {
  /// A raw socket joined as a new attendee: its connection id, once `joined` came.
  func joinedRaw(_ server: ServerUnderTest) throws -> (RawSocket, UUID) {
    let socket = try RawSocket(port: server.port)
    guard case .handshake(let handshake)? = try socket.message() else {
      throw RawSocket.Failure("no handshake")
    }
    socket.write(socket.frame(.join(Join(id: handshake.id, attendee: UUID()))))
    _ = try socket.message { if case .joined = $0 { true } else { false } }
    return (socket, handshake.id)
  }

  func voteResponse(_ socket: RawSocket, _ token: UUID) throws -> VoteResponse? {
    let message = try socket.message {
      if case .voteResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .voteResponse(let response)? = message else { return nil }
    return response
  }

  func votesOnLoop(_ server: ServerUnderTest) async throws -> Double? {
    OperationsTests.sample(
      "qna_votes_on_loop_total", in: try await server.http("GET", "/metrics").body)
  }

  /// The defaults: `qna`'s engine compresses a vote (permessage-deflate, no context
  /// takeover), a plain client does not; both are read on the loop, once the socket's task
  /// has finished with the join (it may still be sending the room when `joined` arrives:
  /// until then a vote takes the task, behind it), and counted once.
  @Test func aVoteInOneFrameIsTakenOnTheLoopCompressedOrNot() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let asker = try await RoomMember.join(server, as: UUID())
    let question = try await asker.socket.askedQuestion("Loop?", as: asker.connection)
    let member = try await RoomMember.join(server, as: UUID())
    _ = try await member.joined()
    var onLoop = false
    for _ in 0..<50 where !onLoop {
      let before = try await votesOnLoop(server) ?? -1
      let token = UUID()
      try await member.vote(question, token: token)
      let response = try await member.voteResponse(token)
      #expect(response.success && response.voted && response.votes == 1, "once, however often")
      onLoop = try await votesOnLoop(server) == before + 1
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(onLoop, "a compressed vote read on the loop")

    let (raw, connection) = try joinedRaw(server)
    let plainToken = UUID()
    onLoop = false
    for _ in 0..<50 where !onLoop {
      let before = try await votesOnLoop(server) ?? -1
      raw.write(
        raw.frame(.vote(Vote(id: connection, question: question, up: true, token: plainToken))))
      let plain = try #require(try voteResponse(raw, plainToken))
      #expect(plain.success && plain.voted && plain.votes == 2 && (plain.seq ?? 0) > 0)
      onLoop = try await votesOnLoop(server) == before + 1
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(onLoop, "a plain vote read on the loop")
    _ = try await asker.waitForVotes(question, 2)
    await asker.socket.close()
    await member.socket.close()
  }

  /// A batch's answers go out with the delta it wakes (`LoopAnswers`); a batch that changes
  /// nothing wakes none, and its answers go out all the same: a vote for no question, and a
  /// vote sent again, each answered on the loop.
  @Test func anAnswerWithoutADeltaStillGoesOut() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let asker = try await RoomMember.join(server, as: UUID())
    let question = try await asker.socket.askedQuestion("Again?", as: asker.connection)
    let (raw, connection) = try joinedRaw(server)
    let first = UUID()
    raw.write(raw.frame(.vote(Vote(id: connection, question: question, up: true, token: first))))
    #expect(try voteResponse(raw, first)?.votes == 1)
    _ = try await asker.waitForVotes(question, 1)
    var onLoop = false
    for _ in 0..<50 where !onLoop {
      let before = try await votesOnLoop(server) ?? -1
      let (nowhere, again) = (UUID(), UUID())
      raw.write(
        raw.frame(.vote(Vote(id: connection, question: UUID(), up: true, token: nowhere))))
      let refused = try #require(try voteResponse(raw, nowhere))
      #expect(!refused.success && refused.message == "There is no such question.")
      raw.write(raw.frame(.vote(Vote(id: connection, question: question, up: true, token: again))))
      let repeated = try #require(try voteResponse(raw, again))
      #expect(repeated.success && repeated.voted && repeated.votes == 1, "counted once")
      onLoop = try await votesOnLoop(server) == before + 2
    }
    #expect(onLoop, "both read on the loop")
    await asker.socket.close()
  }

  /// A join and a vote in one write: the vote waits for the join (it is left to the socket's
  /// task behind it), so it counts rather than being told to join first.
  @Test func aVoteRightBehindItsJoinWaitsForTheJoin() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let asker = try await RoomMember.join(server, as: UUID())
    let question = try await asker.socket.askedQuestion("Pipelined?", as: asker.connection)
    for _ in 0..<5 {
      let raw = try RawSocket(port: server.port)
      guard case .handshake(let handshake)? = try raw.message() else { return }
      let token = UUID()
      raw.write(
        raw.frame(.join(Join(id: handshake.id, attendee: UUID())))
          + raw.frame(.vote(Vote(id: handshake.id, question: question, up: true, token: token))))
      let response = try #require(try voteResponse(raw, token))
      #expect(response.success, "\(response.message ?? "")")
    }
    #expect(try await asker.waitForVotes(question, 5).questions.first?.votes == 5)
    await asker.socket.close()
  }

  /// What the loop does not read whole is the library's and the codec's, as before: a vote in
  /// two frames, a vote with an escape, a control frame between fragments; a vote under
  /// another connection's id is refused either way.
  @Test func whatTheLoopDoesNotReadIsReadAsBefore() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let asker = try await RoomMember.join(server, as: UUID())
    var questions: [UUID] = []
    for number in 0..<3 {
      questions.append(try await asker.socket.askedQuestion("Q\(number)", as: asker.connection))
    }
    let (raw, connection) = try joinedRaw(server)
    let codec = WireCodec()

    let fragmentedToken = UUID()
    let whole = codec.encode(
      .vote(Vote(id: connection, question: questions[0], up: true, token: fragmentedToken)))
    raw.write(
      raw.frame(.text, fin: false, Array(whole[..<20])) + raw.frame(.ping, Array("p".utf8))
        + raw.frame(.continuation, Array(whole[20...])))
    #expect(try voteResponse(raw, fragmentedToken)?.success == true)

    let escapedToken = UUID()
    let escaped = String(
      decoding: codec.encode(
        .vote(Vote(id: connection, question: questions[1], up: true, token: escapedToken))),
      as: UTF8.self
    ).replacingOccurrences(of: #""vote""#, with: #""vot\u0065""#)
    raw.write(raw.frame(.text, Array(escaped.utf8)))
    #expect(try voteResponse(raw, escapedToken)?.success == true)
    #expect(try await votesOnLoop(server) == 0, "neither was read on the loop")

    let strangerToken = UUID()
    raw.write(
      raw.frame(.vote(Vote(id: UUID(), question: questions[2], up: true, token: strangerToken))))
    let refused = try #require(try voteResponse(raw, strangerToken))
    #expect(!refused.success && refused.message == "The id in vote is not this connection's id.")
    await asker.socket.close()
  }

  /// Nothing after a close is read: a vote behind it in the same write is not counted.
  @Test func aVoteAfterACloseIsNotTaken() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let asker = try await RoomMember.join(server, as: UUID())
    let question = try await asker.socket.askedQuestion("After close?", as: asker.connection)
    let (raw, connection) = try joinedRaw(server)
    try await Task.sleep(for: .milliseconds(100))
    raw.write(
      raw.frame(.close, [0x03, 0xE8])
        + raw.frame(.vote(Vote(id: connection, question: question, up: true, token: UUID()))))
    let answer = try? raw.message { if case .voteResponse = $0 { true } else { false } }
    #expect(answer == nil, "closed, unanswered")
    try await Task.sleep(for: .milliseconds(200))
    let metrics = try await server.http("GET", "/metrics").body
    #expect(OperationsTests.sample("qna_votes_total", in: metrics) == 0)
    #expect(OperationsTests.sample("qna_votes_on_loop_total", in: metrics) == 0)
    await asker.socket.close()
  }

  /// A compressed vote that inflates past `--max-message-size` is the library's to close the
  /// socket for (1009), not the loop's to count. (The limit is set below a vote's size to
  /// show it; the default, 16 KiB, is far above one.)
  @Test func aCompressedVotePastTheMessageLimitIsNotTaken() async throws {
    let server = try await ServerUnderTest { $0.maxMessageSize = 160 }
    defer { Task { await server.stop() } }
    let asker = try await RoomMember.join(server, as: UUID())
    let question = try await asker.socket.askedQuestion("Big?", as: asker.connection)
    let member = try await RoomMember.join(server, as: UUID())
    _ = try await member.joined()
    try await Task.sleep(for: .milliseconds(100))
    try? await member.vote(question)
    _ = try? await member.socket.disconnect()
    let metrics = try await server.http("GET", "/metrics").body
    #expect(OperationsTests.sample("qna_votes_total", in: metrics) == 0)
    #expect(OperationsTests.sample("qna_votes_on_loop_total", in: metrics) == 0)
    await asker.socket.close()
  }

  /// A frame marked compressed on a socket that agreed to no compression is the library's to
  /// refuse: the socket is closed, and nothing is counted.
  @Test func aCompressedFrameWithoutDeflateIsTheLibrarysToRefuse() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let (raw, connection) = try joinedRaw(server)
    var frame = raw.frame(
      .vote(Vote(id: connection, question: UUID(), up: true, token: UUID())))
    frame[0] |= 0x40
    raw.write(frame)
    let answer = try? raw.message { if case .voteResponse = $0 { true } else { false } }
    #expect(answer == nil, "closed, unanswered")
    #expect(try await votesOnLoop(server) == 0)
  }
}
