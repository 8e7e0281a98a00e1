import Foundation
import TestSupport
import Testing

/// Two `qna` of one user in two terminals, sharing one state directory (so one attendee id),
/// as a person with two tmux panes runs them. Both ask, the server drops both, and each hears
/// the answer to its own question: neither became someone else on the way back.
@Suite("qna in a terminal: two in one state directory", .serialized)
struct TerminalSharedStateTests {
  typealias UI = TerminalUITests

  @Test func twoClientsInOneDirectoryEachHearTheirAnswerAfterADrop() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    let state = HeadlessProcess.freshDirectory()
    let left = try TerminalRoomTests.terminal(state)
    defer { left.kill() }
    let right = try TerminalRoomTests.terminal(state)
    defer { right.kill() }
    // Started together: both first joins carry the id alone, the race the fix is about.
    try UI.startClient(in: left, url: server.url, state: state)
    try UI.startClient(in: right, url: server.url, state: state)
    for terminal in [left, right] {
      try await terminal.waitFor("connected") { $0.contains("● connected") }
    }
    for (terminal, text) in [(left, "Asked on the left"), (right, "Asked on the right")] {
      try terminal.type(text)
      try terminal.press("Enter")
      try await terminal.waitFor(
        "\(text), created", evidence: UI.logs(of: server, state: state)
      ) { $0.contains(" Unanswered  \(text)") }
    }
    // Two drops: the first reconnect proves the shared credential, the second must find it
    // still good for both. Each is over once both clients are back on new sockets.
    for drop in 1...2 {
      let before = try await connections(server)
      #expect(before.count == 2)
      #expect(try await server.http("POST", "/control/drop").status == 200)
      let deadline = ContinuousClock.now + .seconds(20)
      while true {
        let now = try await connections(server)
        if now.count == 2 && now.isDisjoint(with: before) { break }
        guard ContinuousClock.now < deadline else {
          Issue.record("both clients not back after drop \(drop)")
          return
        }
        try await Task.sleep(for: .milliseconds(100))
      }
      for terminal in [left, right] {
        try await terminal.waitFor("connected after drop \(drop)") {
          $0.contains("● connected") && !$0.contains("reconnecting")
        }
      }
    }
    let questions = try await server.questions()
    #expect(questions.count == 2)
    for question in questions {
      let id = try #require(question["id"] as? String)
      #expect(try await server.http("POST", "/api/questions/\(id)/answer").status == 200)
    }
    for (terminal, text) in [(left, "Asked on the left"), (right, "Asked on the right")] {
      try await terminal.waitFor("\(text), answered") { $0.contains(" Answered    \(text)") }
    }
  }

  /// The server's open sockets, by connection id (`--mock`'s control route).
  func connections(_ server: QnAServerProcess) async throws -> Set<String> {
    let listed = try await server.http("GET", "/control/connections")
    let list = try JSONSerialization.jsonObject(with: Data(listed.body.utf8)) as? [[String: Any]]
    return Set((list ?? []).compactMap { $0["id"] as? String })
  }
}
