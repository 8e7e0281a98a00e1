import Foundation
import TestSupport
import Testing

/// A talk's own Q&A, as people use it: the speaker creates a session with the command line
/// against the running server's database, two attendees join it by its code, the speaker
/// runs its console, and an attendee of the default room sees none of it. Each in tmux.
@Suite("Sessions with join codes, in terminals", .serialized)
struct TerminalSessionTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests

  @Test func attendeesJoinByCodeAndTheDefaultRoomSeesNothingOfIt() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let database = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    defer { server.stop() }
    let made = try ProgramRun(
      QnAServerProcess.path, ["session", "create", "Swift on Linux", "--db", database])
    #expect(made.status == 0, "\(made.errors)")
    let fields = Dictionary(
      made.output.split(separator: "\n").compactMap { line -> (String, String)? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
      }, uniquingKeysWith: { a, _ in a })
    let code = try #require(fields["code"])
    let token = try #require(fields["token"])
    let serverURL = "ws://127.0.0.1:\(server.port)"

    let states = (0..<4).map { _ in HeadlessProcess.freshDirectory() }
    let (alice, bob, carol, speaker) = (
      try Room.terminal(states[0]), try Room.terminal(states[1]), try Room.terminal(states[2]),
      try Room.terminal(states[3])
    )
    defer { for terminal in [alice, bob, carol, speaker] { terminal.kill() } }
    // Attendees type the code as it is said aloud, in lower case too.
    for (terminal, typed) in [(alice, code), (bob, code.lowercased())] {
      try terminal.run(
        "'\(HeadlessProcess.qnaPath)' join \(typed) --url \(serverURL) "
          + UI.quickReconnect.joined(separator: " ") + "; echo \"EXIT=$?\"")
    }
    try UI.startClient(in: carol, url: server.url, state: states[2], view: nil)
    for terminal in [alice, bob] {
      try await terminal.waitFor("the session's title and code in the header") {
        $0.contains("Swift on Linux · \(code)") && $0.contains("● connected")
      }
    }
    try await carol.waitFor("the default room") {
      $0.contains("Room · popular") && $0.contains("● connected")
    }
    // The speaker pastes the session's page address (the QR code's) instead of code and URL.
    try speaker.run(
      "QNA_TOKEN=\(token) '\(HeadlessProcess.qnaPath)' present "
        + "http://127.0.0.1:\(server.port)/s/\(code)/ "
        + "--log-file \(states[3].path)/console.log; echo \"EXIT=$?\"")
    try await speaker.waitFor("the session's console") {
      $0.contains("qna present") && $0.contains("Swift on Linux · \(code)")
        && $0.contains("● connected")
    }

    // A question and a vote.
    try alice.type("Does it run on a Raspberry Pi?")
    try alice.press("Enter")
    try await bob.waitFor("the question in Bob's room") {
      Room.line($0, "Does it run on a Raspberry Pi?")?.contains("▲ 0") == true
    }
    try bob.press("Down")
    try bob.type("+")
    try await alice.waitFor("Bob's vote") {
      Room.line($0, "Does it run on a Raspberry Pi?")?.contains("▲ 1") == true
    }
    // The speaker highlights it, then answers it with text.
    try await speaker.waitFor("in the console") {
      Room.line($0, "Does it run on a Raspberry Pi?") != nil
    }
    try speaker.press("Down")
    try speaker.type("h")
    try await alice.waitFor("Alice's banner") {
      $0.contains("Now answering your question: Does it run on a Raspberry Pi?")
    }
    try await bob.waitFor("Bob's banner") {
      $0.contains("Now answering: Does it run on a Raspberry Pi?")
    }
    try speaker.type("t")
    try speaker.type("Yes, on arm64")
    try speaker.press("Enter")
    try await alice.waitFor("the answer's text") { $0.contains("↳ Answer: Yes, on arm64") }
    try await bob.waitFor("the banner gone") { !$0.contains("Now answering") }

    // Closed by the organiser (the API): the attendees hear it at once, in the header, the
    // footer and a notice (extension sessionState); reopened, it takes questions again.
    let closed = try await server.http("POST", "/api/sessions/\(code)/close")
    #expect(closed.status == 200)
    try await alice.waitFor("the session closed in the header, footer and a notice") {
      $0.contains("Swift on Linux · \(code) · closed")
        && $0.contains("session closed: no new questions")
        && $0.contains("The presenter closed this session")
    }
    try await bob.waitFor("Bob's header") { $0.contains("\(code) · closed") }
    _ = try await server.http("POST", "/api/sessions/\(code)/open")
    try await alice.waitFor("reopened") {
      !$0.contains("· closed") && !$0.contains("session closed: no new questions")
    }

    // The default room: nothing of the session, on screen or in its API.
    let screen = try carol.screen()
    #expect(!screen.contains("Raspberry") && !screen.contains("Now answering"), "\(screen)")
    #expect(try await server.questions().isEmpty)

    try speaker.type("q")
    try await speaker.waitFor("the console's shell back") { $0.contains("EXIT=0") }
    for terminal in [alice, bob] {
      try terminal.press("C-c")
      try await terminal.waitFor("the shell back") { $0.contains("EXIT=0") }
    }
    // A wrong code is an error before any screen is taken.
    try alice.run(
      "clear; '\(HeadlessProcess.qnaPath)' join ZZZZZZ --url \(serverURL); echo \"EXIT=$?\"")
    try await alice.waitFor("the error") {
      $0.contains("there is no session ZZZZZZ") && $0.contains("EXIT=1")
    }
  }
}
