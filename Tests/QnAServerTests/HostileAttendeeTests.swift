import Foundation
import QnA
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import RFC6455
import TestSupport
import Testing
import WebSocketClient

/// An attendee with nothing but the room's socket: joins and votes at any rate, with any
/// identity it can invent. Each finding of the hostile-attendee review, on the server's
/// default settings.
@Suite("qna-server: a hostile attendee in the room", .serialized)
struct HostileAttendeeTests {
  static let alice = uuid(1, group: 0xB1)
  static let carol = uuid(3, group: 0xB1)

  /// `count` questions straight into the store, oldest first, each from an attendee of its own.
  static func seed(_ store: QuestionStore, _ count: Int) async throws -> [UUID] {
    let start = Date().addingTimeInterval(-3600)
    let questions = (0..<count).map { index in
      StoredQuestion(
        id: UUID(), content: "Question \(index): " + String(repeating: "w", count: 60),
        askedFrom: UUID(), createdAt: start.addingTimeInterval(Double(index)))
    }
    try await store.seed(questions)
    return questions.map(\.id)
  }

  /// Before: 1,000 joins in one burst from one socket, in a room of 2,000 questions, each
  /// wrote a row and built a whole snapshot on the room's one task, and every other
  /// attendee's next update waited 27.6 s. Now a socket's joins after its first cost the room
  /// a catch-up at most, and are slowed on their own socket.
  @Test func aThousandJoinsFromOneSocketHoldUpNobodyElse() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let ids = try await Self.seed(server.store, 2000)
    let alice = try await RoomMember.join(server, as: Self.alice)
    _ = try await alice.snapshot()
    let carol = try await RoomMember.join(server, as: Self.carol)
    _ = try await carol.snapshot()

    let mallory = try Attendee(server.socketURL)
    let connection = try await mallory.handshake()
    let itself = UUID()
    let burst = Task {
      for index in 0..<1000 {
        // Half as itself, half as attendees it invents.
        let attendee = index.isMultiple(of: 2) ? itself : UUID()
        try await mallory.send(.join(Join(id: connection, attendee: attendee)))
      }
    }
    // While the burst is in, each of carol's votes reaches alice within 200 ms.
    for (round, question) in ids.prefix(6).enumerated() {
      try await Task.sleep(for: .milliseconds(150))
      let sent = ContinuousClock.now
      try await carol.vote(question)
      try await alice.waitForVotes(question, 1)
      let took = ContinuousClock.now - sent
      #expect(took < .milliseconds(200), "round \(round): alice's update took \(took)")
    }
    try await burst.value
    // Mallory is one attendee: its first join's identity, the others refused.
    let refusals = mallory.messages.compactMap { message -> Joined? in
      if case .joined(let joined)? = try? message.get(), joined.attendee == nil {
        joined
      } else {
        nil
      }
    }
    #expect(!refusals.isEmpty)
    #expect(refusals.allSatisfy { $0.message == "This connection has joined as another attendee." })
    let issued = try await server.http("GET", "/metrics").body
    #expect(issued.contains("qna_attendees_issued_total 3"), "alice, carol, mallory: \(issued)")
    await mallory.close()
    await alice.socket.close()
    await carol.socket.close()
  }

  /// Before: forty rounds of join-then-vote on one socket, each join with a new attendee id,
  /// counted 41 votes for one question. Now a socket is one attendee for its life.
  @Test func joinAndVoteInALoopOnOneSocketCountsOneVote() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: Self.alice)
    let question = try await alice.socket.askedQuestion("Stuff me?", as: alice.connection)
    let mallory = try Attendee(server.socketURL)
    let connection = try await mallory.handshake()
    var tokens: [UUID] = []
    for _ in 0..<40 {
      try await mallory.send(.join(Join(id: connection, attendee: UUID())))
      let token = UUID()
      tokens.append(token)
      try await mallory.send(
        .vote(Vote(id: connection, question: question, up: true, token: token)))
    }
    // Every vote answered (each a success: the same attendee's vote, counted once).
    _ = try await mallory.waitForMessage("40 vote responses", occurrence: 39, seconds: 20) {
      if case .voteResponse = $0 { true } else { false }
    }
    #expect(try await server.store.question(id: question)?.votes == 1)
    await mallory.close()
    await alice.socket.close()
  }

  /// New identities without work (extension `identityWork`) come from the address's lane
  /// for clients that cannot pay (10 at once by default); past it a new attendee still sees
  /// the room, is told when to join again, and its votes wait. An
  /// attendee coming back with its credential takes nothing from the budget. The address is
  /// a forwarded one, behind a trusted proxy on loopback (loopback itself is not counted).
  @Test func newIdentitiesPerAddressAreBoundedAndReturningOnesAreFree() async throws {
    let defaults = ServerConfiguration()
    // The server's clock stands still: the budget refills by the clock, and this test's 200
    // sockets take seconds to open.
    let stopped = ServerEnvironment(uptime: { .seconds(1000) })
    let server = try await ServerUnderTest(environment: stopped) {
      $0.trustedProxies = ["127.0.0.1"]
    }
    defer { Task { await server.stop() } }
    var configuration = ClientConfiguration(pingInterval: nil)
    configuration.handshake.extraHeaders.append(name: "X-Forwarded-For", value: "203.0.113.9")
    func member(_ attendee: UUID, credential: UUID? = nil) async throws -> RoomMember {
      try await RoomMember.join(
        server, as: attendee, credential: credential, configuration: configuration)
    }
    var first: (attendee: UUID, credential: UUID)?
    var members: [RoomMember] = []
    for index in 0..<defaults.newAttendeeRateLimit {
      let attendee = UUID()
      let member = try await member(attendee)
      members.append(member)
      let identity = try await member.joined()
      #expect(identity.attendee == attendee && identity.credential != nil, "attendee \(index)")
      if first == nil, let credential = identity.credential { first = (attendee, credential) }
    }
    let late = try await member(UUID())
    let refusal = try await late.joined()
    #expect(refusal.attendee == nil && (refusal.retryAfter ?? 0) > 0)
    // It sees the room all the same; a vote waits, with a time to try again.
    _ = try await late.snapshot()
    let token = UUID()
    try await late.vote(UUID(), token: token)
    let response = try await late.voteResponse(token)
    #expect(!response.success && response.retryAfter != nil)
    // The first attendee comes back with its credential: known at once.
    let earliest = try #require(first)
    let back = try await member(earliest.attendee, credential: earliest.credential)
    let again = try await back.joined()
    #expect(again.attendee == earliest.attendee && again.credential == earliest.credential)
    // Someone else claiming that id without the credential is someone new (when the budget
    // allows it): here, not now.
    let thief = try await member(earliest.attendee)
    #expect(try await thief.joined().attendee == nil)
    for member in members + [late, back, thief] { await member.socket.close() }
  }
}

/// The built `qna-server`, on its default settings, so that its memory is its own.
@Suite("qna-server: a joiner that never reads", .serialized)
struct NeverReadingJoinerTests {
  /// Before: 2,000 joins from a socket that never reads, in a room of 2,000 questions, took
  /// the server from 42 to 331 MB and kept a new attendee waiting 65 s for the room. Now its
  /// snapshot is made a page at a time as it reads (it reads nothing), and its joins after
  /// the first cost the room nothing.
  @Test func twoThousandJoinsThatAreNeverReadCostTheServerLittle() async throws {
    let directory = try TemporaryDirectory()
    let database = directory.path("qna.sqlite")
    let store = try StoreLocation.open(database)
    try await store.prepare()
    _ = try await HostileAttendeeTests.seed(store, 2000)
    await store.close()
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    defer { server.stop() }
    func newcomerWaits() async throws -> Duration {
      let started = ContinuousClock.now
      let socket = try Attendee(server.url)
      let connection = try await socket.handshake()
      try await socket.send(.join(Join(id: connection, attendee: UUID())))
      let first = try await socket.waitForMessage("the room", seconds: 90) {
        if case .room = $0 { true } else { false }
      }
      guard case .room(let page) = first else { throw ServerTestError.unexpected(first) }
      _ = try await socket.waitForMessage("all of it", occurrence: page.parts - 1, seconds: 90) {
        if case .room = $0 { true } else { false }
      }
      await socket.close()
      return ContinuousClock.now - started
    }
    let warm = try await newcomerWaits()
    let before = try #require(ProcessMemory.residentBytes(of: server.child.pid))

    let script = PeerProcess.packageRoot.appendingPathComponent(
      "Tests/Interop/never_reading_joiner.py")
    let attacker = try ChildProcess(
      "/usr/bin/python3", [script.path, "\(server.port)", "2000"])
    defer { attacker.stop() }
    #expect(await onOwnThread { attacker.readStdoutLine() } == "sent\n")
    try await Task.sleep(for: .seconds(2))
    let waited = try await newcomerWaits()
    try await Task.sleep(for: .seconds(1))
    let after = try #require(ProcessMemory.residentBytes(of: server.child.pid))
    let grown = after - before
    #expect(waited < .seconds(3), "a new attendee waited \(waited) (\(warm) before the attack)")
    #expect(grown < 40 << 20, "the server grew by \(grown >> 20) MB, from \(before >> 20) MB")
    try attacker.stdin.close()
  }
}
