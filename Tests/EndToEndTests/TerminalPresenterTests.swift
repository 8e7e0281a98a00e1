import Foundation
import TestSupport
import Testing

/// The presenter's console and two attendees, each at a terminal of their own: in tmux, keys
/// in, screens read back, against `qna-server --moderation` with an admin token.
@Suite("qna present in a terminal", .serialized)
struct TerminalPresenterTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests
  static let token = "console-token-0123"

  @Test func moderateHighlightAndAnswerFromTheConsoleWhileItsLinkDrops() async throws {
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--mock", "--moderation", "--admin-token", Self.token,
    ])
    defer { server.stop() }
    let auth = ["Authorization": "Bearer \(Self.token)"]
    let (aliceState, bobState, consoleState) = (
      HeadlessProcess.freshDirectory(), HeadlessProcess.freshDirectory(),
      HeadlessProcess.freshDirectory()
    )
    let alice = try Room.terminal(aliceState)
    defer { alice.kill() }
    let bob = try Room.terminal(bobState)
    defer { bob.kill() }
    try UI.startClient(in: alice, url: server.url, state: aliceState, view: nil)
    try UI.startClient(in: bob, url: server.url, state: bobState, view: nil)
    for terminal in [alice, bob] {
      try await terminal.waitFor("the room") { $0.contains("● connected") }
    }
    let console = try Room.terminal(consoleState)
    defer { console.kill() }
    // A wrong token: asked again (without echo), then a clear error before any screen.
    try console.run(
      "QNA_TOKEN=wrong-token-0123 '\(HeadlessProcess.qnaPath)' present --url \(server.url) "
        + "--log-file \(consoleState.path)/console.log; echo \"EXIT=$?\"")
    try await console.waitFor("asked again") { $0.contains("That token was refused. Admin token:") }
    try console.type("typed-but-wrong")
    try console.press("Enter")
    try console.press("Enter")
    try await console.waitFor("the error") {
      $0.contains("the server refused the admin token (HTTP 401)") && $0.contains("EXIT=1")
    }
    #expect(!(try console.screen()).contains("typed-but-wrong"), "never echoed")
    try console.run("clear")
    // The token from the environment: never on the command line, never on screen.
    try console.run(
      "QNA_TOKEN=\(Self.token) '\(HeadlessProcess.qnaPath)' present --url \(server.url) "
        + "--log-file \(consoleState.path)/console.log; echo \"EXIT=$?\"")
    try await console.waitFor("the console") {
      $0.contains("qna present") && $0.contains("● connected")
    }

    // Alice asks: in review, for her only.
    try alice.type("Is moderation on?")
    try alice.press("Enter")
    try await alice.waitFor("hers, in review") {
      Room.line($0, "Is moderation on?")?.contains("In review") == true
    }
    try await console.waitFor("in the review list") { $0.contains("Review 1") }
    try console.type("1")
    try console.press("Down")
    try await console.waitFor("selected") { Room.line($0, "Is moderation on?") != nil }
    #expect(!(try bob.screen()).contains("Is moderation on?"))

    // Approved: Bob sees it.
    try console.type("a")
    try await bob.waitFor("the approved question") { Room.line($0, "Is moderation on?") != nil }
    try await alice.waitFor("no longer in review") {
      Room.line($0, "Is moderation on?").map { !$0.contains("In review") } == true
    }

    // Highlighted: both attendees show the banner.
    try console.type("2")
    try console.press("Down")
    try console.type("h")
    try await alice.waitFor("Alice's banner") {
      $0.contains("Now answering your question: Is moderation on?")
    }
    try await bob.waitFor("Bob's banner") { $0.contains("Now answering: Is moderation on?") }

    // Answered with text: Alice sees it answered, with the text.
    try console.type("t")
    try console.type("Yes, since this morning")
    try console.press("Enter")
    try await alice.waitFor("the answer's text") {
      $0.contains("↳ Answer: Yes, since this morning")
    }
    try await bob.waitFor("the banner gone") { !$0.contains("Now answering") }

    // Bob asks; the console's link stalls on the way back: its dismiss reaches the server and
    // is done, but the console never hears, then the link drops. The console says the action
    // waits, sends it again on its own, and the server does it once.
    try bob.type("Off topic, sorry")
    try bob.press("Enter")
    try await console.waitFor("Bob's question in review") { $0.contains("Review 1") }
    try console.type("1")
    try console.press("Down")
    try await console.waitFor("selected") { Room.line($0, "Off topic, sorry") != nil }
    let connections =
      try JSONSerialization.jsonObject(
        with: Data(try await server.http("GET", "/control/connections", headers: auth).body.utf8))
      as? [[String: Any]]
    let consoleConnection = try #require(connections?.last?["id"] as? String)
    #expect(
      try await server.http(
        "POST", "/control/stall?id=\(consoleConnection)&seconds=30&direction=out", headers: auth
      ).status == 200)
    try console.type("d")
    try await console.waitFor("the action waiting") { $0.contains("1 action not sent yet") }
    for _ in 0..<50 {
      let list = try await server.http("GET", "/api/questions", headers: auth).body
      if list.contains("\"state\":\"dismissed\"") { break }
      try await Task.sleep(for: .milliseconds(100))
    }
    #expect(
      try await server.http("GET", "/api/questions", headers: auth).body.contains(
        "\"state\":\"dismissed\""), "stored before the link drops")
    #expect(try console.screen().contains("1 action not sent yet"), "and the console not told")
    #expect(
      try await server.http("POST", "/control/drop?id=\(consoleConnection)", headers: auth)
        .status == 200)
    try await console.waitFor("sent again and confirmed") {
      $0.contains("Dismissed 1") && !$0.contains("not sent yet")
    }
    try await bob.waitFor("Bob told in words") { $0.contains("Dismissed · Off topic, sorry") }
    let questions =
      try JSONSerialization.jsonObject(
        with: Data(try await server.http("GET", "/api/questions", headers: auth).body.utf8))
      as? [[String: Any]]
    let dismissed = try #require(questions?.first { $0["state"] as? String == "dismissed" })
    let id = try #require(dismissed["id"] as? String)
    let history = try await server.http("GET", "/api/questions/\(id)/history", headers: auth)
    #expect(history.body.components(separatedBy: "\"dismiss\"").count == 2, "\(history.body)")
    #expect(!(try console.screen()).contains(Self.token))

    try console.type("q")
    try await console.waitFor("the shell back") { $0.contains("EXIT=0") }
    for terminal in [alice, bob] {
      try terminal.press("C-c")
      try await terminal.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    }
  }
}
