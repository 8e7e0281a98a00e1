import Foundation
import QnA
import QnAClient
import TestSupport
import Testing

/// `qna --headless` and polls: `--poll ID=CHOICE` and `/poll ID CHOICE` answer once the poll
/// is in the room; with `--exit-after-send` the run waits for the server's verdict and exits
/// 1 when the answer was refused; `poll` lines (with `--room`) say the poll and the answer.
@Suite("qna --headless: polls", .serialized)
struct HeadlessPollTests {
  static let json = ["Content-Type": "application/json"]

  static func openPoll(_ server: QnAServerProcess, _ body: String) async throws -> String {
    let made = try await server.http("POST", "/api/polls", body: body, headers: json)
    let id = try #require(
      (try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])?["id"]
        as? String)
    #expect(try await server.http("POST", "/api/polls/\(id)/open").status == 200)
    return id
  }

  @Test func answersByOptionNumberAndRatingAndWordsCountOnce() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let choice = try await Self.openPoll(
      server, #"{"kind":"multiple","prompt":"Which?","options":["A","B","C"]}"#)
    let rating = try await Self.openPoll(server, #"{"kind":"rating","prompt":"How was it?"}"#)
    let cloud = try await Self.openPoll(server, #"{"kind":"words","prompt":"One word?"}"#)
    let text = try await Self.openPoll(server, #"{"kind":"text","prompt":"Ideas?"}"#)
    let run = try HeadlessProcess(
      [
        "--url", server.url, "--room", "--poll", "\(choice)=1,3", "--poll", "\(rating)=4",
        "--poll", "\(text)=More demos, please", "--exit-after-send",
      ], stdin: "/poll \(cloud) Swift, FAST\n")
    #expect(await run.exitStatus() == 0, "\(run.stderr)")
    let line = try await run.waitFor("poll") {
      $0["id"] == choice && ($0.fields["answer"] as? [String: Any])?["choices"] != nil
    }
    #expect((line.fields["answer"] as? [String: Any])?["choices"] as? [Int] == [0, 2])
    let polls = try await server.http("GET", "/api/polls")
    #expect(polls.body.contains(#""counts":[1,0,1]"#))
    #expect(polls.body.contains(#""counts":[0,0,0,1,0]"#))
    #expect(
      polls.body.contains(#"{"count":1,"text":"fast"}"#) || polls.body.contains(#""text":"fast""#))
    // An open text's answer is the whole line, commas and all.
    #expect(
      polls.body.contains(#""texts":[{"count":1,"text":"More demos, please"}]"#)
        || polls.body.contains(#""texts":[{"text":"More demos, please","count":1}]"#))
  }

  @Test func aRefusedAnswerOrAPollTheRoomLacksExitsOne() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let choice = try await Self.openPoll(
      server, #"{"kind":"single","prompt":"Which?","options":["A","B"]}"#)
    let wrong = try HeadlessProcess(
      ["--url", server.url, "--poll", "\(choice)=7", "--exit-after-send"], stdin: "")
    #expect(await wrong.exitStatus() == 1)
    #expect(wrong.stderr.contains("poll answer failed"))
    let nowhere = try HeadlessProcess(
      ["--url", server.url, "--poll", "\(UUID().uuidString)=1", "--exit-after-send"], stdin: "")
    #expect(await nowhere.exitStatus() == 1)
    #expect(nowhere.stderr.contains("is not a poll of the room"))
  }
}
