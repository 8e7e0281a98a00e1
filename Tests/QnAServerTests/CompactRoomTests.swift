import Foundation
import QnA
import QnARoom
import QnAServer
import TestSupport
import Testing
import WebSocketClient

/// Extension `counts` and the shared broadcast, on the server's defaults: a client that asks
/// for the compact room gets numbered questions, counts as numbers and its own marks apart;
/// one that does not ask gets today's bytes; and the frames are the same bytes for every
/// socket with the same framing.
@Suite("qna-server: the compact room and shared frames", .serialized)
struct CompactRoomTests {
  static let alice = uuid(1, group: 0xC0)
  static let bob = uuid(2, group: 0xC0)
  static let carol = uuid(3, group: 0xC0)

  @Test func aCompactJoinGetsSharedPagesItsOwnMarksAndCountsAsNumbers() async throws {
    let server = try await ServerUnderTest()
    let alice = try await RoomMember.join(server, as: Self.alice)
    let question = try await alice.socket.askedQuestion("Counts?", as: alice.connection)
    let bob = try await RoomMember.join(server, as: Self.bob, counts: true)
    let page = try #require(try await bob.snapshot().first?.questions.first)
    // Shared pages: numbered, with no marks of anyone's.
    #expect(page.id == question && page.n != nil && page.mine == nil && page.voted == nil)
    let bobsOwn = try await bob.own()
    #expect(bobsOwn.questions.isEmpty && bobsOwn.voted.isEmpty)

    // Carol votes: bob's delta names the question by number; alice's is today's format.
    let carol = try await RoomMember.join(server, as: Self.carol, counts: true)
    _ = try await carol.own()
    let token = UUID()
    try await carol.vote(question, token: token)
    #expect(try await carol.voteResponse(token).votes == 1)
    let counted = try await bob.socket.waitForMessage("counts") {
      if case .roomDelta(let delta) = $0 { delta.counts != nil } else { false }
    }
    guard case .roomDelta(let compact) = counted else { throw ServerTestError.unexpected(counted) }
    #expect(compact.counts == [page.n!, 1] && compact.questions.isEmpty)
    try await alice.waitForVotes(question, 1)
    let oldFormat = alice.socket.events.compactMap { event -> String? in
      guard case .message(let message) = event else { return nil }
      return String(decoding: message.data, as: UTF8.self)
    }.filter { $0.contains("\"roomDelta\"") }
    #expect(!oldFormat.isEmpty)
    #expect(oldFormat.allSatisfy { !$0.contains("\"n\"") && !$0.contains("\"counts\"") })

    // Carol again, on a new connection: her vote comes back in her own marks, by number.
    let credential = try await carol.credential()
    await carol.socket.close()
    let again = try await RoomMember.join(
      server, as: Self.carol, credential: credential, counts: true)
    _ = try await again.snapshot()
    #expect(try await again.own().voted == [page.n!])
    // And alice, asking for it, finds her question marked hers.
    let credentialA = try await alice.credential()
    await alice.socket.close()
    let aliceAgain = try await RoomMember.join(
      server, as: Self.alice, credential: credentialA, counts: true)
    let alicesOwn = try await aliceAgain.own()
    #expect(alicesOwn.questions.map(\.id) == [question] && alicesOwn.questions[0].mine == true)
    for member in [bob, again, aliceAgain] { await member.socket.close() }
    await server.stop()
  }

  @Test func aMalformedVoteOrJoinIsRefusedInWords() async throws {
    let server = try await ServerUnderTest()
    let member = try await RoomMember.join(server, as: Self.alice)
    _ = try await member.snapshot()
    try await member.socket.send(
      raw:
        #"{"type":"vote","id":"\#(member.connection)","question":"\#(UUID())","up":true,"token":"not-a-uuid"}"#
    )
    let message = try await member.socket.waitForMessage("refusal") {
      if case .refusal = $0 { true } else { false }
    }
    guard case .refusal(let refusal) = message else { throw ServerTestError.unexpected(message) }
    #expect(refusal.refused == "vote" && refusal.message.contains("could not be read"))
    try await member.socket.send(raw: #"{"type":"join","id":"x"}"#)
    _ = try await member.socket.waitForMessage("the join's refusal") {
      if case .refusal(let refusal) = $0 { refusal.refused == "join" } else { false }
    }
    // The base protocol's messages stay unanswered, as the existing back ends leave them.
    try await member.socket.send(raw: #"{"type":"newQuestion","content":7}"#)
    try await Task.sleep(for: .milliseconds(200))
    #expect(
      member.socket.messages.filter { if case .refusal? = try? $0.get() { true } else { false } }
        .count == 2)
    await member.socket.close()
    await server.stop()
  }

  /// Python, from outside: raw sockets read the frames byte for byte (the same compressed
  /// bytes for sockets alike, uncompressed where it does not pay or was not agreed, each
  /// inflating from a fresh state), and Python's `websockets` decodes the compact room.
  @Test func framesAreSharedAndDecodeForPeersWrittenElsewhere() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let script = PeerProcess.packageRoot.appendingPathComponent("Tests/Interop/shared_frames.py")
    let peer = try ChildProcess(PeerProcess.python, [script.path, "\(server.port)"])
    defer { peer.stop() }
    let line = await onOwnThread { peer.readStdoutLine() }
    #expect(line == "{\"ok\": true}\n", "\(line)")
  }
}

/// A client from before the compact room, as recorded: the exact messages a `qna` of the
/// `room` and `identity` extensions sent (no `counts` in its join), and the keys of everything
/// the server may answer it with, as that client's release documented them. The server must
/// answer it key for key in today's format, whatever the compact clients beside it asked for.
@Suite("qna-server: a recorded client of today's room format", .serialized)
struct RecordedOldClientTests {
  /// Keys each message type carried before `counts`, per docs/protocol-extensions.md then.
  static let keys: [String: Set<String>] = [
    "handshake": ["type", "id", "extensions", "session", "maxMessageSize"],
    "joined": ["type", "id", "attendee", "credential", "message", "retryAfter"],
    "room": ["type", "seq", "part", "parts", "epoch", "highlighted", "questions"],
    "roomDelta": ["type", "from", "to", "questions", "removed", "highlight", "part", "parts"],
    "questionResponse": [
      "type", "id", "success", "message", "content", "createdAt", "answered", "token",
      "retryAfter", "state", "answer", "private",
    ],
    "voteResponse": [
      "type", "question", "token", "success", "voted", "votes", "seq", "message", "retryAfter",
    ],
  ]
  static let questionKeys: Set<String> = [
    "id", "content", "votes", "answered", "createdAt", "mine", "voted", "state", "answer",
    "private", "name",
  ]

  @Test func anOldClientIsAnsweredKeyForKeyInTodaysFormat() async throws {
    let server = try await ServerUnderTest()
    // A compact client in the same room, voting: its counts must not leak to the old one.
    let compact = try await RoomMember.join(server, as: uuid(9, group: 0xC0), counts: true)
    let old = try Attendee(server.socketURL)
    let id = try await old.handshake()
    // Recorded from a client of the extensions before `counts` (ids from this run).
    for text in [
      #"{"type":"join","id":"\#(id)","attendee":"0C9A5D3E-2F4B-4C6D-8E9F-0A1B2C3D4E5F","name":"Zoë"}"#,
      #"{"type":"newQuestion","id":"\#(id)","content":"Recorded?","token":"5E5D4EE9-C555-49C9-BE16-EF778645CC05"}"#,
    ] {
      try await old.send(raw: text)
    }
    let created = try await old.waitForMessage("created") {
      if case .questionResponse = $0 { true } else { false }
    }
    guard case .questionResponse(let response) = created, let question = response.id else {
      throw ServerTestError.unexpected(created)
    }
    let token = UUID()
    try await compact.vote(question, token: token)
    _ = try await compact.voteResponse(token)
    try await old.send(
      raw:
        #"{"type":"vote","id":"\#(id)","question":"\#(question)","up":false,"token":"A1B2C3D4-E5F6-4A1B-8C2D-3E4F5A6B7C8D"}"#
    )
    _ = try await old.waitForMessage("the vote's delta") {
      if case .roomDelta(let delta) = $0 {
        delta.questions.contains { $0.votes == 1 }
      } else {
        false
      }
    }
    _ = try await old.waitForMessage("its own vote's answer") {
      if case .voteResponse = $0 { true } else { false }
    }
    for event in old.events {
      guard case .message(let message) = event,
        let object = try JSONSerialization.jsonObject(with: Data(message.data)) as? [String: Any],
        let type = object["type"] as? String
      else { continue }
      let allowed = try #require(Self.keys[type], "a \(type) the old client never knew")
      #expect(Set(object.keys).isSubset(of: allowed), "\(type): \(object.keys.sorted())")
      for question in object["questions"] as? [[String: Any]] ?? [] {
        #expect(Set(question.keys).isSubset(of: Self.questionKeys), "\(question.keys.sorted())")
      }
    }
    await old.close()
    await compact.socket.close()
    await server.stop()
  }
}
