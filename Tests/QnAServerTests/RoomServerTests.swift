import Foundation
import GRDB
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import RFC6455
import TestSupport
import Testing
import WebSocketClient

@Suite("qna-server: the room", .serialized)
struct RoomServerTests {
  static let alice = uuid(1, group: 0xA7)
  static let bob = uuid(2, group: 0xA7)

  @Test func oneVotePerAttendeeAcrossResendsAndReconnects() async throws {
    let server = try await ServerUnderTest()
    let alice = try await RoomMember.join(server, as: Self.alice)
    let question = try await alice.socket.askedQuestion("Votes?", as: alice.connection)
    var bob = try await RoomMember.join(server, as: Self.bob)
    _ = try await bob.snapshot()

    let token = UUID()
    try await bob.vote(question, token: token)
    try await bob.vote(question, token: token)  // a resend
    try await bob.vote(question)  // the same intent, typed twice
    let first = try await bob.voteResponse(token)
    #expect(first.success && first.voted && first.votes == 1)
    #expect(try await bob.voteResponse(token, occurrence: 1).votes == 1)

    // Bob's link drops; on a new connection he is the same attendee, proved by the
    // credential the server issued him. Once the room has shown his vote: a join's snapshot
    // is the room as of its last flush, which under load may come after the reconnect (seen
    // beside other suites: the snapshot then lacked the question, which came in a delta).
    try await alice.waitForVotes(question, 1)
    let credential = try await bob.credential()
    await bob.socket.close()
    bob = try await RoomMember.join(server, as: Self.bob, credential: credential)
    let snapshot = try await bob.snapshot().flatMap(\.questions)
    #expect(snapshot.first { $0.id == question }?.voted == true)
    #expect(snapshot.first { $0.id == question }?.votes == 1)
    let again = UUID()
    try await bob.vote(question, token: again)
    #expect(try await bob.voteResponse(again).votes == 1)
    try await alice.waitForVotes(question, 1)

    // Taking it back, twice, counts once; so does voting again.
    let down = UUID()
    try await bob.vote(question, up: false, token: down)
    try await bob.vote(question, up: false, token: down)
    #expect(try await bob.voteResponse(down, occurrence: 1).votes == 0)
    #expect(try await bob.voteResponse(down, occurrence: 1).voted == false)

    // Alice cannot vote for her own question; nobody can vote for an answered one, but a
    // vote already there can be taken back.
    let own = UUID()
    try await alice.vote(question, token: own)
    let refusal = try await alice.voteResponse(own)
    #expect(!refusal.success && refusal.message?.contains("yours") == true)
    let up = UUID()
    try await bob.vote(question, token: up)
    #expect(try await bob.voteResponse(up).votes == 1)
    #expect(try await server.http("POST", "/api/questions/\(question)/answer").status == 200)
    let late = UUID()
    try await bob.vote(question, token: late)
    #expect(try await bob.voteResponse(late).votes == 1, "an answered question's vote stays")
    let back = UUID()
    try await bob.vote(question, up: false, token: back)
    #expect(try await bob.voteResponse(back).votes == 0)
    let closed = UUID()
    try await bob.vote(question, token: closed)
    let answeredRefusal = try await bob.voteResponse(closed)
    #expect(!answeredRefusal.success && answeredRefusal.message?.contains("answered") == true)
    await alice.socket.close()
    await bob.socket.close()
    await server.stop()
  }

  @Test func identityComesFromTheJoinNeverFromAConnectionID() async throws {
    let server = try await ServerUnderTest()
    let alice = try await RoomMember.join(server, as: Self.alice)
    let aliceToken = UUID()
    let question = try await alice.socket.askedQuestion(
      "Mine", as: alice.connection, token: aliceToken)
    // A socket that never joined cannot vote.
    let stranger = try Attendee(server.socketURL)
    let strangerID = try await stranger.handshake()
    let token = UUID()
    try await stranger.send(.vote(Vote(id: strangerID, question: question, up: true, token: token)))
    let refused = try await stranger.waitForMessage("refused") {
      if case .voteResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .voteResponse(let response) = refused else { return }
    #expect(!response.success && response.message?.contains("Join") == true)
    // Joining under another connection's id is ignored; so is voting under one.
    try await stranger.send(.join(Join(id: alice.connection, attendee: Self.bob)))
    try await stranger.send(
      .vote(Vote(id: alice.connection, question: question, up: true, token: UUID())))
    try await Task.sleep(for: .milliseconds(200))
    #expect(!stranger.messages.contains { if case .room? = try? $0.get() { true } else { false } })
    // Knowing a question's id (the room shows it) does not take over its answers.
    try await stranger.send(.resume(Resume(id: strangerID, questions: [question])))
    let resumed = try await stranger.waitForMessage("resumed") {
      if case .resumed = $0 { true } else { false }
    }
    #expect(resumed == .resumed(Resumed(id: strangerID, missing: [])))
    #expect(
      !stranger.messages.contains {
        if case .questionResponse? = try? $0.get() { true } else { false }
      })
    // Nor does knowing its token, once the question is an attendee's: a resend and a resume
    // by token from another attendee leave the answers where they were.
    try await stranger.send(.join(Join(id: strangerID, attendee: Self.bob)))
    try await stranger.ask("Mine", as: strangerID, token: aliceToken)
    try await stranger.send(.resume(Resume(id: strangerID, questions: [], tokens: [aliceToken])))
    _ = try await stranger.waitForMessage("resumed again", occurrence: 1) {
      if case .resumed = $0 { true } else { false }
    }
    #expect(try await server.http("POST", "/api/questions/\(question)/answer").status == 200)
    _ = try await alice.socket.waitForMessage("the answer, to its asker") {
      if case .questionAnswer = $0 { true } else { false }
    }
    try await Task.sleep(for: .milliseconds(200))
    #expect(
      !stranger.messages.contains {
        if case .questionAnswer? = try? $0.get() { true } else { false }
      })
    await stranger.close()
    await alice.socket.close()
    await server.stop()
  }

  @Test func theRoomCarriesNoTokenAttendeeOrConnection() async throws {
    let server = try await ServerUnderTest()
    let alice = try await RoomMember.join(server, as: Self.alice)
    let token = UUID()
    let question = try await alice.socket.askedQuestion(
      "Private?", as: alice.connection, token: token)
    let bob = try await RoomMember.join(server, as: Self.bob)
    _ = try await bob.snapshot()
    try await bob.vote(question)
    try await bob.waitForVotes(question, 1)
    let texts = bob.socket.events.compactMap { event -> String? in
      guard case .message(let message) = event else { return nil }
      return String(decoding: message.data, as: UTF8.self)
    }
    for secret in [token, Self.alice, alice.connection] {
      #expect(!texts.contains { $0.contains(secret.uuidString) }, "\(secret) leaked")
    }
    await alice.socket.close()
    await bob.socket.close()
    await server.stop()
  }

  @Test func votesFromManyAttendeesReachEveryoneCoalesced() async throws {
    let server = try await ServerUnderTest { $0.mock = MockConfiguration() }
    let alice = try await RoomMember.join(server, as: Self.alice)
    let question = try await alice.socket.askedQuestion("Popular?", as: alice.connection)
    let watcher = try await RoomMember.join(server, as: Self.bob)
    _ = try await watcher.snapshot()
    // 40 attendees on sockets of their own vote at once, and 200 simulated ones one by one.
    var voters: [RoomMember] = []
    for number in 0..<40 {
      voters.append(try await RoomMember.join(server, as: uuid(number, group: 0xB0)))
    }
    for voter in voters { try await voter.vote(question) }
    for _ in 0..<200 {
      _ = try await server.http("POST", "/control/room/votes?question=\(question)&n=1")
    }
    try await watcher.waitForVotes(question, 240, seconds: 10)
    let deltas = watcher.deltas.filter { $0.questions.contains { $0.id == question } }
    print("240 votes reached a watcher in \(deltas.count) deltas")
    // One delta per change would be 240; coalesced, a few per 100 ms window.
    #expect(deltas.count < 80, "\(deltas.count) deltas for 240 votes")
    // Sequence numbers follow on without a gap, however much each delta covers.
    let all = watcher.deltas
    #expect(zip(all, all.dropFirst()).allSatisfy { $1.from == $0.to + 1 })
    for voter in voters { await voter.socket.close() }
    await watcher.socket.close()
    await alice.socket.close()
    await server.stop()
  }

  /// In both formats: today's (pages made for each socket, one at a time) and the compact
  /// one (shared pages, handed to the socket's loop in batches).
  @Test(arguments: [false, true])
  func aTenThousandQuestionRoomArrivesInPagesUnderTheMessageLimit(compact: Bool) async throws {
    let server = try await ServerUnderTest { $0.mock = MockConfiguration() }
    #expect(try await server.http("POST", "/control/room/seed?n=10000").status == 200)
    let bob = try await RoomMember.join(server, as: Self.bob, counts: compact ? true : nil)
    let pages = try await bob.snapshot()
    #expect(pages.count > 1)
    #expect(pages.map(\.part) == Array(1...pages[0].parts), "in order, each once")
    #expect(Set(pages.flatMap(\.questions).map(\.id)).count == 10_000)
    // The existing back ends close at 16 KiB: every page fits under it.
    #expect(bob.largestMessage < 16_384, "largest \(bob.largestMessage) bytes")
    await bob.socket.close()
    await server.stop()
  }

  /// A change too large for one message (2,000 questions at once, as a busy room's window or
  /// a long catch-up can hold) comes as pages of one delta, each under the existing back
  /// ends' 16 KiB, so that no client's message limit shuts it out of the room.
  @Test func aLargeChangeComesAsDeltaPagesUnderTheMessageLimit() async throws {
    let server = try await ServerUnderTest { $0.mock = MockConfiguration() }
    let bob = try await RoomMember.join(server, as: Self.bob)
    _ = try await bob.snapshot()
    #expect(try await server.http("POST", "/control/room/seed?n=2000").status == 200)
    let first = try await bob.socket.waitForMessage("a delta") {
      if case .roomDelta = $0 { true } else { false }
    }
    guard case .roomDelta(let page) = first, let parts = page.parts else {
      Issue.record("expected a delta in pages, got \(first)")
      return
    }
    _ = try await bob.socket.waitForMessage("every page", occurrence: parts - 1) {
      if case .roomDelta = $0 { true } else { false }
    }
    let pages = bob.deltas.prefix(parts)
    #expect(pages.map(\.part) == Array(1...parts))
    #expect(pages.allSatisfy { $0.from == page.from && $0.to == page.to && $0.parts == parts })
    #expect(Set(pages.flatMap(\.questions).map(\.id)).count == 2000)
    #expect(bob.largestMessage < 16_384, "largest \(bob.largestMessage) bytes")
    await bob.socket.close()
    await server.stop()
  }

  @Test(arguments: [false, true])
  func aSlowReaderOfALargeRoomGetsAllOfItAndIsNotDropped(compact: Bool) async throws {
    let server = try await ServerUnderTest { $0.mock = MockConfiguration() }
    #expect(try await server.http("POST", "/control/room/seed?n=10000").status == 200)
    // A client whose consumer reads nothing for two seconds: its engine stops reading, TCP
    // fills, and the server must wait rather than queue 1.6 MB for it (and drop it).
    let client = WebSocketClient(
      url: try WebSocketURL(server.socketURL),
      configuration: ClientConfiguration(pingInterval: nil, eventBufferSize: 4))
    client.start()
    var events = client.events.makeAsyncIterator()
    var pages: [RoomSnapshot] = []
    var deltas = 0
    let codec = WireCodec()
    while let event = await events.next() {
      guard case .message(let message) = event else {
        if case .disconnected(let why) = event { Issue.record("dropped: \(why)") }
        continue
      }
      switch try codec.decode(message.data) {
      case .handshake(let handshake):
        try await client.send(
          binary: codec.encode(
            .join(Join(id: handshake.id, attendee: Self.bob, counts: compact ? true : nil))))
      case .room(let page):
        pages.append(page)
        guard pages.count == 1 else { break }
        // The snapshot is read; someone votes while it is on its way, and the reader stalls.
        let id = page.questions[0].id
        #expect(
          try await server.http("POST", "/control/room/votes?question=\(id)&n=3").status == 200)
        try await Task.sleep(for: .seconds(2))
      case .roomDelta(let delta):
        #expect(pages.count == pages.first?.parts, "a delta only after the whole snapshot")
        // Compact: the votes come as a count, `[number, votes]`.
        let counted = (delta.counts ?? []).enumerated().contains {
          $0.offset % 2 == 1 && $0.element == 3
        }
        #expect(delta.questions.contains { $0.votes == 3 } || counted)
        deltas += 1
      default: break
      }
      if deltas > 0 { break }
    }
    #expect(Set(pages.flatMap(\.questions).map(\.id)).count == 10_000)
    await client.close()
    await server.stop()
  }

  @Test func aReconnectCatchesUpWithADeltaAndAnotherRoomGetsASnapshot() async throws {
    let server = try await ServerUnderTest()
    let alice = try await RoomMember.join(server, as: Self.alice)
    let first = try await alice.socket.askedQuestion("One", as: alice.connection)
    var bob = try await RoomMember.join(server, as: Self.bob)
    let snapshot = try await bob.snapshot()
    let (seq, epoch) = (snapshot[0].seq, snapshot[0].epoch)
    await bob.socket.close()
    let second = try await alice.socket.askedQuestion("Two", as: alice.connection)
    bob = try await RoomMember.join(server, as: Self.bob, since: seq, epoch: epoch)
    let message = try await bob.socket.waitForMessage("catch-up") {
      if case .roomDelta = $0 { true } else if case .room = $0 { true } else { false }
    }
    guard case .roomDelta(let delta) = message else {
      Issue.record("expected a catch-up delta, got \(message)")
      return
    }
    #expect(delta.from == seq + 1)
    #expect(delta.questions.map(\.id) == [second])
    await bob.socket.close()
    // Numbers from another room (another database) are not trusted: a whole snapshot.
    bob = try await RoomMember.join(server, as: Self.bob, since: seq, epoch: UUID())
    #expect(Set(try await bob.snapshot().flatMap(\.questions).map(\.id)) == [first, second])
    await bob.socket.close()
    await alice.socket.close()
    await server.stop()
  }

  @Test func votesAndTheRoomSurviveARestartOnTheSameDatabase() async throws {
    let database = HeadlessProcess.freshDirectory().appendingPathComponent("room.sqlite").path
    var server = try await ServerUnderTest { $0.database = database }
    let alice = try await RoomMember.join(server, as: Self.alice)
    let question = try await alice.socket.askedQuestion("Kept?", as: alice.connection)
    var bob = try await RoomMember.join(server, as: Self.bob)
    let token = UUID()
    try await bob.vote(question, token: token)
    #expect(try await bob.voteResponse(token).votes == 1)
    let credential = try await bob.credential()
    await bob.socket.close()
    await alice.socket.close()
    await server.stop()

    server = try await ServerUnderTest { $0.database = database }
    bob = try await RoomMember.join(server, as: Self.bob, credential: credential)
    let room = try await bob.snapshot().flatMap(\.questions)
    #expect(room.first?.votes == 1 && room.first?.voted == true)
    // The resent vote after the restart counts once.
    try await bob.vote(question, token: token)
    #expect(try await bob.voteResponse(token).votes == 1)
    await bob.socket.close()
    await server.stop()
  }

  @Test func aDatabaseMadeBeforeTheRoomUpgradesInPlace() async throws {
    let path = HeadlessProcess.freshDirectory().appendingPathComponent("v1.sqlite").path
    // The schema and bookkeeping exactly as the server before the room left them.
    let old = try DatabaseQueue(path: path)
    try await old.write { db in
      try db.execute(
        sql: """
          CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
          INSERT INTO grdb_migrations VALUES ('v1: questions');
          CREATE TABLE "question" ("id" TEXT PRIMARY KEY NOT NULL, "content" TEXT NOT NULL,
            "answered" BOOLEAN NOT NULL DEFAULT 0, "askedFrom" TEXT NOT NULL,
            "createdAt" DOUBLE NOT NULL, "token" TEXT UNIQUE);
          CREATE INDEX "question_on_createdAt" ON "question"("createdAt");
          INSERT INTO question VALUES ('\(uuid(1, group: 0x5E))', 'Asked last year', 1,
            '\(uuid(1, group: 0xC0))', 700000000, '\(uuid(1))');
          INSERT INTO question VALUES ('\(uuid(2, group: 0x5E))', 'Still open', 0,
            '\(uuid(2, group: 0xC0))', 700000001, NULL);
          """)
    }
    try old.close()
    let server = try await ServerUnderTest { $0.database = path }
    let listed = try await server.http("GET", "/api/questions")
    #expect(listed.status == 200)
    #expect(listed.body.contains("Asked last year") && listed.body.contains(#""votes":0"#))
    let bob = try await RoomMember.join(server, as: Self.bob)
    let room = try await bob.snapshot().flatMap(\.questions)
    #expect(room.map(\.content) == ["Asked last year", "Still open"])
    let token = UUID()
    try await bob.vote(uuid(2, group: 0x5E), token: token)
    #expect(try await bob.voteResponse(token).votes == 1)
    await bob.socket.close()
    await server.stop()
  }
}
