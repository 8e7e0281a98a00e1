import Foundation
import TestSupport
import Testing

/// The room end to end: `qna --headless --room` processes against `qna-server` as a user
/// starts it (default settings), and the fallback against back ends without the room.
@Suite("qna --headless: the room end to end", .serialized)
struct RoomEndToEndTests {
  static let quickReconnect = ["--max-backoff", "1s"]

  func votes(_ server: QnAServerProcess, _ id: String) async throws -> Int? {
    try await server.questions().first { $0["id"] as? String == id }?["votes"] as? Int
  }

  @Test func oneAsksAnotherVotesTheAskerSeesTheVoteWithinASecond() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let alice = try HeadlessProcess(["--url", server.url, "--room", "--ask", "Room for one more?"])
    defer { alice.interrupt() }
    let id = try #require(try await alice.waitFor("created")["id"])
    // Alice's own question in her room: hers, no votes. (A delta carries no `mine`: under
    // load it may reach her before her own question's response does, and the room shows the
    // question as hers once that response has come.)
    let own = try await alice.waitFor("room") {
      $0["id"] == id && $0.fields["mine"] as? Bool == true
    }
    #expect(own.fields["votes"] as? Int == 0)

    let bobState = HeadlessProcess.freshDirectory()
    let bob = try HeadlessProcess(
      ["--url", server.url, "--room", "--vote", id, "--exit-after-send"], stdin: "",
      stateDirectory: bobState)
    let seen = try await bob.waitFor("room") { $0["id"] == id }
    #expect(seen["content"] == "Room for one more?" && seen.fields["mine"] as? Bool == false)
    _ = try await bob.waitFor("room") { $0["id"] == id && $0.fields["voted"] as? Bool == true }
    // The promise: within a second of Bob's vote counting, Alice sees it.
    let voted = try await alice.waitFor("room", seconds: 1) {
      $0["id"] == id && $0.fields["votes"] as? Int == 1
    }
    #expect(Set(voted.fields.keys).isSuperset(of: Self.roomFields))
    #expect(await bob.exitStatus() == 0, "\(bob.stderr)")

    // Bob again, from the same state directory: the same attendee, the same single vote.
    let again = try HeadlessProcess(
      ["--url", server.url, "--room", "--vote", id, "--exit-after-send"], stdin: "",
      stateDirectory: bobState)
    let restored = try await again.waitFor("room") { $0["id"] == id }
    #expect(restored.fields["voted"] as? Bool == true && restored.fields["votes"] as? Int == 1)
    #expect(await again.exitStatus() == 0, "\(again.stderr)")
    #expect(try await votes(server, id) == 1)
  }

  /// The largest question and answer the server takes, and a change of 2,000 questions at
  /// once, still reach a `qna` that joins or is there: no message of the room passes the
  /// 64 KiB it reads (an 80 KB answer once closed every client with 1009, for good).
  @Test func theLargestAnswerAndALargeChangeLeaveEveryClientInTheRoom() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    let watcher = try HeadlessProcess(["--url", server.url, "--room"])
    defer { watcher.interrupt() }
    _ = try await watcher.waitFor("handshake")
    let longest = String(repeating: "🇫🇷", count: 1000)  // the server's default limit, 8 KB
    let asker = try HeadlessProcess(
      ["--url", server.url, "--ask", longest, "--exit-after-send"], stdin: "")
    let id = try #require(try await asker.waitFor("created")["id"])
    let tooLong = String(repeating: "🇫🇷", count: 10_000)
    let refused = try await server.http(
      "POST", "/api/questions/\(id)/answer", body: "{\"text\":\"\(tooLong)\"}")
    #expect(refused.status == 400 && refused.body.contains("too long"), "\(refused.body)")
    let answer = String(repeating: "🇫🇷", count: 2000)  // 16,000 bytes: just under the limit
    let answered = try await server.http(
      "POST", "/api/questions/\(id)/answer", body: "{\"text\":\"\(answer)\"}")
    #expect(answered.status == 200, "\(answered.body)")
    #expect(try await server.http("POST", "/control/room/seed?n=2000").status == 200)
    let late = try HeadlessProcess(["--url", server.url, "--room"])
    defer { late.interrupt() }
    for qna in [watcher, late] {
      let line = try await qna.waitFor("room", seconds: 10) {
        $0["id"] == id && $0["answer"] != nil
      }
      #expect(line["answer"] == answer)
      _ = try await qna.waitFor("room", seconds: 10) { $0["content"] == "Seeded question 2000" }
      #expect(!qna.events.contains { $0.name == "disconnected" }, "\(qna.stderr)")
    }
  }

  /// A vote cast while the server is away, then qna quit before it came back: the next run
  /// sends it (kept on disk beside the pending questions), and it counts once.
  @Test func aVoteTypedOfflineSurvivesQuittingAndCountsOnce() async throws {
    let database = HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
    var server = try await QnAServerProcess(["--port", "0", "--db", database])
    let port = server.port
    let asker = try HeadlessProcess(
      ["--url", server.url, "--ask", "Keep my vote?", "--exit-after-send"], stdin: "")
    let id = try #require(try await asker.waitFor("created")["id"])
    #expect(await asker.exitStatus() == 0)
    let state = HeadlessProcess.freshDirectory()
    let bob = try HeadlessProcess(
      ["--url", server.url, "--room"] + Self.quickReconnect, stateDirectory: state)
    _ = try await bob.waitFor("room") { $0["id"] == id }
    server.stop()
    _ = try await bob.waitFor("disconnected")
    bob.write("/vote \(id)")
    _ = try await bob.waitFor("room") { $0["id"] == id && $0.fields["voted"] as? Bool == true }
    bob.interrupt()
    _ = await bob.exitStatus()

    server = try await QnAServerProcess(["--port", "\(port)", "--db", database])
    defer { server.stop() }
    let again = try HeadlessProcess(["--url", server.url, "--room"], stateDirectory: state)
    defer { again.interrupt() }
    _ = try await again.waitFor("room", seconds: 10) {
      $0["id"] == id && $0.fields["votes"] as? Int == 1 && $0.fields["voted"] as? Bool == true
    }
    #expect(try await votes(server, id) == 1)
  }

  /// Every `room` line carries these (docs/headless.md).
  static let roomFields: Set<String> = [
    "event", "id", "content", "votes", "voted", "answered", "mine", "highlighted",
  ]

  @Test func aVoteSurvivesADroppedLinkAndIsNeverCountedTwice() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    let asker = try HeadlessProcess(
      ["--url", server.url, "--ask", "Drop me?", "--exit-after-send"], stdin: "")
    let id = try #require(try await asker.waitFor("created")["id"])
    #expect(await asker.exitStatus() == 0)

    let bob = try HeadlessProcess(["--url", server.url, "--room"] + Self.quickReconnect)
    defer { bob.interrupt() }
    _ = try await bob.waitFor("room") { $0["id"] == id }
    bob.write("/vote \(id)")
    _ = try await bob.waitFor("room") { $0["id"] == id && $0.fields["voted"] as? Bool == true }
    #expect(try await server.http("POST", "/control/drop").status == 200)
    _ = try await bob.waitFor("handshake", occurrence: 1)
    // The same vote typed again, and a question that starts with a slash.
    bob.write("/vote \(id)")
    bob.write("//slash command?")
    _ = try await bob.waitFor("created") { $0["content"] == "/slash command?" }
    #expect(try await votes(server, id) == 1)
    let unvoted: @Sendable (HeadlessProcess.Event) -> Bool = {
      $0["id"] == id && $0.fields["voted"] as? Bool == false && $0.fields["votes"] as? Int == 0
    }
    // The room's first line matched too (no votes yet): wait for the one after it.
    let before = bob.events.filter { $0.name == "room" && unvoted($0) }.count
    bob.write("/unvote \(id)")
    _ = try await bob.waitFor("room", occurrence: before, where: unvoted)
    #expect(try await votes(server, id) == 0)
  }

  @Test func backEndsWithoutTheRoomSayItOnceAndBehaveAsBefore() async throws {
    let reference = try PeerProcess(script: "reference_backend.py")
    defer { reference.stop() }
    let plain = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--no-extensions"])
    defer { plain.stop() }
    for url in ["ws://127.0.0.1:\(reference.port)/socket", plain.url] {
      let withRoom = try HeadlessProcess(
        ["--url", url, "--room", "--ask", "Only mine?", "--exit-after-send"], stdin: "")
      #expect(await withRoom.exitStatus() == 0, "\(withRoom.stderr)")
      let notices = withRoom.events.filter { $0.name == "notice" }.compactMap { $0["text"] }
      #expect(notices.filter { $0 == "This server shows only your own questions." }.count == 1)
      #expect(!withRoom.events.contains { $0.name == "room" })
      #expect(withRoom.events.contains { $0.name == "created" })

      // Without --room, not a word about it: the output is what it always was.
      let plainRun = try HeadlessProcess(
        ["--url", url, "--ask", "As before?", "--exit-after-send"], stdin: "")
      #expect(await plainRun.exitStatus() == 0)
      #expect(!plainRun.rawOutput.contains("only your own"))

      // A vote has nowhere to go: said, exit 1.
      let voter = try HeadlessProcess(
        ["--url", url, "--vote", UUID().uuidString, "--exit-after-send"], stdin: "")
      #expect(await voter.exitStatus() == 1)
      #expect(voter.stderr.contains("no room to vote in"))
    }
  }

  @Test func aVoteForNoQuestionOfTheRoomFailsWithExitOne() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let voter = try HeadlessProcess(
      ["--url", server.url, "--vote", UUID().uuidString, "--exit-after-send"], stdin: "")
    #expect(await voter.exitStatus() == 1)
    #expect(voter.stderr.contains("is not a question of the room"), "\(voter.stderr)")
    let bad = try HeadlessProcess(["--url", server.url, "--vote", "not-an-id"], stdin: "")
    #expect(await bad.exitStatus() == 64)
  }
}
