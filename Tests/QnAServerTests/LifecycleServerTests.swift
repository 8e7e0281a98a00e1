import Foundation
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

/// A presenter over the socket: opened with the admin token, joins like anyone, then acts.
struct PresenterMember {
  let member: RoomMember

  static let token = "presenter-token-0123"

  static func join(
    _ server: ServerUnderTest, token: String? = token, path: String = "/socket"
  ) async throws -> PresenterMember {
    var configuration = ClientConfiguration(pingInterval: nil)
    if let token { configuration.handshake.extraHeaders = [("Authorization", "Bearer \(token)")] }
    let socket = try Attendee(
      "ws://127.0.0.1:\(server.port)\(path)?role=presenter", configuration: configuration)
    let connection = try await socket.handshake()
    let attendee = UUID()
    try await socket.send(.join(Join(id: connection, attendee: attendee)))
    return PresenterMember(
      member: RoomMember(socket: socket, connection: connection, attendee: attendee))
  }

  /// Sends an action and waits for its outcome.
  @discardableResult
  func act(
    _ kind: PresenterActionKind, _ question: UUID?, text: String? = nil, isPrivate: Bool? = nil,
    list: String? = nil, token: UUID = UUID(), occurrence: Int = 0
  ) async throws -> PresenterActionResponse {
    try await member.socket.send(
      .presenterAction(
        PresenterAction(
          id: member.connection, token: token, question: question, action: kind, text: text,
          isPrivate: isPrivate, list: list)))
    // The `occurrence`-th outcome under this token: a token sent again is answered again.
    let message = try await member.socket.waitForMessage("outcome", occurrence: occurrence) {
      if case .presenterActionResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .presenterActionResponse(let response) = message else {
      throw ServerTestError.unexpected(message)
    }
    return response
  }
}

extension RoomMember {
  /// Every byte this member received, as text: what no attendee may see is checked here.
  var wire: String {
    socket.events.compactMap { event -> String? in
      guard case .message(let message) = event else { return nil }
      return String(decoding: message.data, as: UTF8.self)
    }.joined(separator: "\n")
  }

  /// Waits until a delta shows `question` in `state`.
  func waitForState(_ question: UUID, _ state: QuestionState) async throws {
    _ = try await socket.waitForMessage("\(state)") {
      guard case .roomDelta(let delta) = $0 else { return false }
      return delta.questions.contains { $0.id == question && $0.lifecycle == state }
    }
  }
}

@Suite("qna-server: the question life cycle and the presenter", .serialized)
struct LifecycleServerTests {
  static let alice = uuid(1, group: 0x1C)
  static let bob = uuid(2, group: 0x1C)

  /// Joined as `attendee`, with the room's snapshot in.
  static func entered(_ server: ServerUnderTest, _ attendee: UUID) async throws -> RoomMember {
    let member = try await RoomMember.join(server, as: attendee)
    _ = try await member.snapshot()
    return member
  }

  @Test func withModerationNoAttendeeButTheAskerEverReceivesAQuestionInReview() async throws {
    let server = try await ServerUnderTest { $0.moderation = true }
    defer { Task { await server.stop() } }
    let bob = try await RoomMember.join(server, as: Self.bob)
    _ = try await bob.snapshot()
    let alice = try await Self.entered(server, Self.alice)
    let secret = "Only alice and the presenters may read this"
    let token = UUID()
    try await alice.socket.ask(secret, as: alice.connection, token: token)
    let response = try await alice.socket.response()
    #expect(response.success && response.state == "review")
    #expect(response.message.contains("reviews"))
    let id = try #require(response.id)
    // A later snapshot: alice's has it, in review and hers; bob's does not.
    let aliceAgain = try await RoomMember.join(
      server, as: Self.alice, credential: try await alice.credential())
    let pages = try await aliceAgain.snapshot()
    let mine = try #require(pages.flatMap(\.questions).first { $0.id == id })
    #expect(mine.lifecycle == .review && mine.mine == true)
    let bobAgain = try await RoomMember.join(
      server, as: Self.bob, credential: try await bob.credential())
    #expect(try await bobAgain.snapshot().flatMap(\.questions).isEmpty)
    try await Task.sleep(for: .milliseconds(300))
    #expect(!bob.wire.contains(secret) && !bob.wire.contains(id.uuidString))
    #expect(!bobAgain.wire.contains(secret))
    // Votes by id on a question in review: no such question, for anyone.
    let vote = UUID()
    try await bob.vote(id, token: vote)
    #expect(try await bob.voteResponse(vote).success == false)

    // Dismissed straight from review: the asker is told at once; the room never hears of it.
    let other = try await alice.socket.askedQuestion("Spam from alice", as: alice.connection)
    let dismissed = try await server.http("POST", "/api/questions/\(other)/dismiss")
    #expect(dismissed.status == 200)
    _ = try await alice.socket.waitForMessage("the decision, for its asker") {
      guard case .questionResponse(let response) = $0 else { return false }
      return response.id == other && response.state == "dismissed"
    }

    // Approved: now everyone sees it, live.
    let approved = try await server.http(
      "POST", "/api/questions/\(id)/approve")
    #expect(approved.status == 200 && approved.body.contains("\"state\":\"live\""))
    try await bob.waitForState(id, .live)
    try await alice.waitForState(id, .live)
    #expect(!bob.wire.contains(other.uuidString) && !bob.wire.contains("Spam from alice"))
  }

  @Test func aDismissedQuestionLeavesTheRoomAndItsAskerKeepsItMarked() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let (alice, bob) = try await (Self.entered(server, Self.alice), Self.entered(server, Self.bob))
    let id = try await alice.socket.askedQuestion("Off topic", as: alice.connection)
    try await bob.waitForState(id, .live)
    let presenter = try await PresenterMember.join(server)
    #expect(try await presenter.act(.highlight, id).success)
    #expect(try await presenter.act(.dismiss, id).success)
    // Attendees are told it left (and the highlight with it); the presenter sees it dismissed.
    _ = try await bob.socket.waitForMessage("removed") {
      if case .roomDelta(let delta) = $0 { delta.removed?.contains(id) == true } else { false }
    }
    try await presenter.member.waitForState(id, .dismissed)
    #expect(try await server.store.highlighted() == nil)
    // Its asker's next snapshot still has it, dismissed; another attendee's does not.
    let aliceAgain = try await RoomMember.join(
      server, as: Self.alice, credential: try await alice.credential())
    let mine = try await aliceAgain.snapshot().flatMap(\.questions).first { $0.id == id }
    #expect(mine?.lifecycle == .dismissed)
    let bobAgain = try await RoomMember.join(server, as: Self.bob)
    #expect(try await bobAgain.snapshot().flatMap(\.questions).contains { $0.id == id } == false)
    // Restored: back in everyone's room.
    #expect(try await presenter.act(.restore, id).success)
    try await bob.waitForState(id, .live)
  }

  @Test func aPrivateAnswerReachesOnlyItsAsker() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let (alice, bob) = try await (Self.entered(server, Self.alice), Self.entered(server, Self.bob))
    let id = try await alice.socket.askedQuestion("Can I see my grade?", as: alice.connection)
    let presenter = try await PresenterMember.join(server)
    let text = "Yes: it is a B+, between us"
    #expect(try await presenter.act(.answer, id, text: text, isPrivate: true).success)
    let answer = try await alice.socket.waitForMessage("answer") {
      if case .questionAnswer = $0 { true } else { false }
    }
    #expect(answer == .questionAnswer(QuestionAnswer(questionId: id, text: text, isPrivate: true)))
    try await bob.waitForState(id, .answered)
    // In a delta, or in the presenter's snapshot when that was read after the answer.
    _ = try await presenter.member.socket.waitForMessage("the answer, for presenters") {
      let questions: [RoomQuestion]
      switch $0 {
      case .roomDelta(let delta): questions = delta.questions
      case .room(let page): questions = page.questions
      default: return false
      }
      return questions.contains { $0.answer == text && $0.isPrivate == true }
    }
    try await Task.sleep(for: .milliseconds(200))
    #expect(!bob.wire.contains("B+"))
    let bobAgain = try await RoomMember.join(server, as: Self.bob)
    let seen = try await bobAgain.snapshot().flatMap(\.questions).first { $0.id == id }
    #expect(seen?.answered == true && seen?.answer == nil)
    // A public answer reaches the whole room.
    #expect(try await presenter.act(.answer, id, text: "Grades are out on Monday").success)
    _ = try await bob.socket.waitForMessage("public answer") {
      guard case .roomDelta(let delta) = $0 else { return false }
      return delta.questions.contains { $0.answer == "Grades are out on Monday" }
    }
  }

  @Test func twoPresentersActingAtOnceLeaveOneConsistentState() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await Self.entered(server, Self.alice)
    var ids: [UUID] = []
    for index in 0..<10 {
      ids.append(try await alice.socket.askedQuestion("Q\(index)", as: alice.connection))
    }
    let first = try await PresenterMember.join(server)
    let second = try await PresenterMember.join(server)
    // Both highlight every question, dismiss the odd ones, and answer the even ones, at once.
    // A highlight that comes after the other's answer or dismissal is refused (nothing to
    // highlight there), so how many are done depends on the interleaving: each is counted.
    let questions = ids
    let done = try await withThrowingTaskGroup(of: Int.self) { group in
      for presenter in [first, second] {
        group.addTask {
          var done = 0
          for (index, id) in questions.enumerated() {
            if try await presenter.act(.highlight, id).success { done += 1 }
            let kind: PresenterActionKind = index.isMultiple(of: 2) ? .answer : .dismiss
            if try await presenter.act(kind, id).success { done += 1 }
          }
          return done
        }
      }
      return try await group.reduce(0, +)
    }
    let store = server.store
    for (index, id) in ids.enumerated() {
      let question = try #require(try await store.question(id: id))
      #expect(question.publicState == (index.isMultiple(of: 2) ? .answered : .dismissed))
    }
    // At most one highlight, and none left on a dismissed or answered question.
    #expect(try await store.highlighted() == nil)
    // Every action of both that was done is in the history, each once; every answer and
    // dismissal was (doing it again changes nothing, and is no error).
    var total = 0
    for id in ids { total += try await store.transitions(of: id).count }
    #expect(total == done, "\(total) in the history, \(done) done")
    // Both answered or dismissed each question; the first action on each is a highlight.
    #expect(done >= 20 + 10, "\(done)")
  }

  @Test func aResentActionAfterAReconnectIsDoneOnce() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await Self.entered(server, Self.alice)
    let id = try await alice.socket.askedQuestion("Q", as: alice.connection)
    let presenter = try await PresenterMember.join(server)
    let dismiss = UUID()
    #expect(try await presenter.act(.dismiss, id, token: dismiss).success)
    #expect(try await presenter.act(.restore, id).success)
    // The dismiss again, as a console whose connection dropped before its answer would:
    // accepted, and not done again.
    let again = try await PresenterMember.join(server)
    #expect(try await again.act(.dismiss, id, token: dismiss).success)
    #expect(try await server.store.question(id: id)?.publicState == .live)
    // The same token for another action: refused, not reported done.
    let reused = try await again.act(.highlight, id, token: dismiss, occurrence: 1)
    #expect(!reused.success && reused.message?.contains("another action") == true)
  }

  @Test func onlyAPresentersSocketActsAndItNeedsTheToken() async throws {
    let server = try await ServerUnderTest { $0.adminToken = PresenterMember.token }
    defer { Task { await server.stop() } }
    for (headers, why) in [
      ([:], "no token"), (["Authorization": "Bearer wrong-token-0123456"], "a wrong token"),
      (["Authorization": "Basic \(PresenterMember.token)"], "not a bearer token"),
    ] {
      let response = try await server.http(
        "GET", "/socket?role=presenter",
        headers: headers.merging(
          [
            "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
          ], uniquingKeysWith: { a, _ in a }))
      #expect(response.status == 401, "\(why)")
    }
    // The gate and the route read the same target: a fragment, percent-encoding or an
    // upgrade among several protocols never gets a presenter's socket past the gate.
    let upgrade = [
      "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    ]
    for (target, headers) in [
      ("/socket?role=presenter#", upgrade),
      ("/socket?x=1&role=presenter", upgrade),
      ("/socket?role=presenter", upgrade.merging(["Upgrade": "websocket, h2c"]) { _, b in b }),
      ("/socket?role=presenter", upgrade.merging(["Upgrade": "WebSocket"]) { _, b in b }),
    ] {
      let response = try await server.http("GET", target, headers: headers)
      #expect(response.status == 401, "\(target) \(headers)")
    }
    let crossSite = try await server.http(
      "GET", "/socket",
      headers: upgrade.merging(["Upgrade": "h2c, websocket", "Origin": "https://evil.example"]) {
        _, b in b
      })
    #expect(crossSite.status == 403)
    // An attendee asking with an encoded role stays an attendee (the route reads it as sent).
    let encoded = try Attendee(server.socketURL + "?role=%70resenter")
    let plain = try await encoded.waitForMessage("handshake") {
      if case .handshake = $0 { true } else { false }
    }
    if case .handshake(let body) = plain {
      #expect(body.extensions?.contains(ProtocolExtension.presenter) == false)
    }
    let presenter = try await PresenterMember.join(server)
    let handshake = try await presenter.member.socket.waitForMessage("handshake") {
      if case .handshake = $0 { true } else { false }
    }
    guard case .handshake(let body) = handshake else { return }
    #expect(body.extensions?.contains(ProtocolExtension.presenter) == true)
    // An attendee's socket: no presenter extension, and actions refused.
    let alice = try await Self.entered(server, Self.alice)
    let id = try await alice.socket.askedQuestion("Q", as: alice.connection)
    let forged = PresenterMember(member: alice)
    let refused = try await forged.act(.dismiss, id)
    #expect(!refused.success && refused.message?.contains("presenter") == true)
    #expect(try await server.store.question(id: id)?.publicState == .live)
  }
}
