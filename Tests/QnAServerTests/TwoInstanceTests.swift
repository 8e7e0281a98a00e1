import Foundation
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import TestSupport
import Testing

/// Two servers on one PostgreSQL database, no proxy between: what happens through one
/// reaches the sockets of the other, through PostgreSQL's `NOTIFY` alone (each server has its
/// own store, hubs and connections, as two processes would).
@Suite("qna-server: two instances on one PostgreSQL", .serialized)
struct TwoInstanceTests {
  static let alice = uuid(1, group: 0x2E)
  static let bob = uuid(2, group: 0x2E)

  /// One admin token for both, as a deployment would have.
  static let admin = "two-instances-admin"
  static let bearer = ["Authorization": "Bearer \(admin)"]

  static func pair() async throws -> (ServerUnderTest, ServerUnderTest) {
    let url = try PostgresProcess.shared().database()
    let configure: (inout ServerConfiguration) -> Void = {
      $0.database = url
      $0.adminToken = admin
    }
    let one = try await ServerUnderTest(configure)
    let two = try await ServerUnderTest(configure)
    return (one, two)
  }

  @Test func anAnswerGivenThroughOneInstanceReachesTheAskerOnTheOther() async throws {
    let (one, two) = try await Self.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    // An existing client (no room) asks on instance one.
    let asker = try Attendee(one.socketURL)
    try await asker.ask("Is the answer cross-instance?", as: try await asker.handshake())
    let id = try #require(try await asker.response().id)
    // Bob's room on instance two sees it, votes for it through instance two.
    let bob = try await RoomMember.join(two, as: Self.bob)
    _ = try await bob.snapshot()
    let seen = bob.rooms.flatMap(\.questions).contains { $0.id == id }
    if !seen {
      _ = try await bob.socket.waitForMessage("the question in a delta") {
        if case .roomDelta(let delta) = $0 {
          delta.questions.contains { $0.id == id }
        } else {
          false
        }
      }
    }
    // Alice's room on instance one sees Bob's vote.
    let alice = try await RoomMember.join(one, as: Self.alice)
    _ = try await alice.snapshot()
    let token = UUID()
    try await bob.vote(id, token: token)
    #expect(try await bob.voteResponse(token).votes == 1)
    try await alice.waitForVotes(id, 1)
    // The presenter answers through instance two's API.
    let answered = try await two.http(
      "POST", "/api/questions/\(id)/answer", body: #"{"text":"Yes, through PostgreSQL."}"#,
      headers: Self.bearer.merging(["Content-Type": "application/json"]) { $1 })
    #expect(answered.status == 200, "\(answered.body)")
    let answer = try await asker.waitForMessage("the answer, on instance one") {
      if case .questionAnswer(let answer) = $0 { answer.questionId == id } else { false }
    }
    guard case .questionAnswer(let body) = answer else { throw ServerTestError.unexpected(answer) }
    #expect(body.text == "Yes, through PostgreSQL.")
    _ = try await alice.socket.waitForMessage("the answer in alice's room") {
      if case .roomDelta(let delta) = $0 {
        delta.questions.contains { $0.id == id && $0.answered }
      } else {
        false
      }
    }
    // The answer went out once to the asker.
    let answers = asker.messages.filter {
      if case .questionAnswer? = try? $0.get() { true } else { false }
    }
    #expect(answers.count == 1)
  }

  @Test func sessionsStayApartAcrossInstances() async throws {
    let (one, two) = try await Self.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    // Made through instance one, joined through instance two.
    let talk = try await MadeSession.create(one, "Scale-out", admin: Self.admin)
    let other = try await MadeSession.create(two, "Another talk", admin: Self.admin)
    let inTalk = try await SessionServerTests.entered(two, Self.alice, path: talk.socket)
    let inOther = try await SessionServerTests.entered(one, Self.bob, path: other.socket)
    let inDefault = try await SessionServerTests.entered(one, uuid(3, group: 0x2E), path: "/socket")
    let asked = try await SessionServerTests.ask(inTalk, "Only for this talk")
    let id = try #require(asked.id)
    // The talk's presenter, on the other instance, highlights it; its room hears of it.
    let highlighted = try await one.http(
      "POST", "/s/\(talk.code)/api/questions/\(id)/highlight", headers: talk.bearer)
    #expect(highlighted.status == 200, "\(highlighted.body)")
    _ = try await inTalk.socket.waitForMessage("the highlight") {
      if case .roomDelta(let delta) = $0 { delta.highlight?.id == id } else { false }
    }
    // The other rooms hear nothing of it, on either instance.
    try await Task.sleep(for: .milliseconds(500))
    for member in [inOther, inDefault] {
      #expect(member.deltas.allSatisfy { $0.questions.isEmpty && $0.highlight == nil })
    }
    #expect(try await one.store.count() == 0)
    #expect(try await two.http("GET", "/api/questions", headers: Self.bearer).body == "[]")
    // Another session's token does not open this one's API.
    let refused = try await two.http(
      "POST", "/s/\(talk.code)/api/questions/\(id)/answer", headers: other.bearer)
    #expect(refused.status == 401)
  }

  @Test func aSessionClosedReopenedAndDeletedThroughOneInstanceTellsItsSocketsOnTheOther()
    async throws
  {
    let (one, two) = try await Self.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    let talk = try await MadeSession.create(one, "Short-lived", admin: Self.admin)
    let member = try await SessionServerTests.entered(two, Self.alice, path: talk.socket)
    // Closed and reopened through one: the attendee on the other hears both at once.
    for (action, open) in [("close", false), ("open", true)] {
      let done = try await one.http(
        "POST", "/api/sessions/\(talk.code)/\(action)", headers: Self.bearer)
      #expect(done.status == 200)
      _ = try await member.socket.waitForMessage("\(action) news") {
        if case .sessionNews(let news) = $0 { news.session.open == open } else { false }
      }
    }
    let deleted = try await one.http(
      "DELETE", "/api/sessions/\(talk.code)", headers: Self.bearer)
    #expect(deleted.status == 204)
    _ = try await member.socket.waitForMessage("deleted news") {
      if case .sessionNews(let news) = $0 { news.deleted == true } else { false }
    }
    // Instance two hears of it from PostgreSQL and closes the session's sockets.
    let disconnect = try await member.socket.disconnect()
    #expect("\(disconnect)".contains("1001"), "\(disconnect)")
    let gone = try await two.http("GET", talk.socket, headers: SessionServerTests.upgrade)
    #expect(gone.status == 404)
  }

  /// The projector's head count is the session's, not the instance's: a screen on each
  /// instance shows the distinct attendees joined through either, on the default timings;
  /// an attendee joined through both (two sockets, one identity) counts once.
  @Test func screensOnBothInstancesShowTheSameHeadCount() async throws {
    let (one, two) = try await Self.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    let talk = try await MadeSession.create(one, "Head count", admin: Self.admin)
    let screens = [
      try await RoomScreen.join(one, path: talk.socket),
      try await RoomScreen.join(two, path: talk.socket),
    ]
    // Alice through both instances, with the credential instance one issued her; Bob
    // through instance two.
    let alice = try await RoomMember.join(one, as: Self.alice, path: talk.socket)
    let credential = try await alice.credential()
    let aliceOnTwo = try await RoomMember.join(
      two, as: Self.alice, credential: credential, path: talk.socket)
    #expect(try await aliceOnTwo.joined().attendee == Self.alice)
    let bob = try await RoomMember.join(two, as: Self.bob, path: talk.socket)
    #expect(try await bob.joined().credential != nil)
    for screen in screens { try await screen.waitForCount(2) }
    #expect(try await screens[0].settledCount() == 2)
    #expect(screens[1].counts.last == 2)
    // Alice's socket on instance one closes (she is still in the room through two), and
    // Bob leaves.
    await alice.socket.close()
    await bob.socket.close()
    for screen in screens { try await screen.waitForCount(1) }
    #expect(try await screens[0].settledCount() == 1)
    #expect(screens[1].counts.last == 1)
    await aliceOnTwo.socket.close()
    for screen in screens { try await screen.waitForCount(0) }
  }
}
