import Foundation
import TestSupport
import Testing

/// The room as two people at two terminals see it: in tmux, keys in, screens read back,
/// against `qna-server` with its default settings.
@Suite("qna in a terminal: the room", .serialized)
struct TerminalRoomTests {
  typealias UI = TerminalUITests

  static func terminal(_ state: URL) throws -> TmuxSession {
    try TmuxSession(
      columns: 100, rows: 24, environment: ["XDG_STATE_HOME": state.path, "LC_ALL": "C.UTF-8"])
  }

  /// The screen's line showing `text`.
  static func line(_ screen: String, _ text: String) -> Substring? {
    UI.lines(screen).first { $0.contains(text) }
  }

  @Test func oneAsksAnotherVotesAndTheAskerSeesItWithinASecond() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    let aliceState = HeadlessProcess.freshDirectory()
    let bobState = HeadlessProcess.freshDirectory()
    let alice = try Self.terminal(aliceState)
    defer { alice.kill() }
    let bob = try Self.terminal(bobState)
    defer { bob.kill() }
    try UI.startClient(in: alice, url: server.url, state: aliceState, view: nil)
    try UI.startClient(in: bob, url: server.url, state: bobState, view: nil)
    for terminal in [alice, bob] {
      try await terminal.waitFor("the room, connected") {
        $0.contains("Room · popular") && $0.contains("● connected")
      }
    }

    try alice.type("Who will vote for this?")
    try alice.press("Enter")
    try await alice.waitFor("her question, marked hers") {
      Self.line($0, "Who will vote for this?")?.contains("▲ 0    ◆") == true
    }
    try await bob.waitFor("the question in Bob's room") {
      Self.line($0, "Who will vote for this?")?.contains("▲ 0") == true
    }
    try bob.press("Down")
    try bob.type("+")
    try await bob.waitFor("Bob's vote counted") {
      Self.line($0, "Who will vote for this?")?.contains("▲ 1") == true
    }
    try await alice.waitFor("Alice sees ▲ 1", seconds: 1) {
      Self.line($0, "Who will vote for this?")?.contains("▲ 1") == true
    }

    // Bob's link drops and comes back: his vote is still his, and still one.
    #expect(try await server.http("POST", "/control/drop").status == 200)
    try await bob.waitFor("reconnected") {
      $0.contains("● connected") && !$0.contains("reconnecting")
    }
    // Bob quits and starts again: the same attendee, who has voted (so "+" now takes it back).
    try bob.press("C-c")
    try await bob.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    try bob.run("clear")
    try UI.startClient(in: bob, url: server.url, state: bobState, view: nil)
    try await bob.waitFor("the vote still counted once") {
      Self.line($0, "Who will vote for this?")?.contains("▲ 1") == true
    }
    let id = try #require(try await server.questions().first?["id"] as? String)
    #expect(try await server.questions().first?["votes"] as? Int == 1)
    try bob.press("Down")
    try bob.type("+")
    try await alice.waitFor("taken back") {
      Self.line($0, "Who will vote for this?")?.contains("▲ 0") == true
    }
    #expect(try await server.questions().first { $0["id"] as? String == id }?["votes"] as? Int == 0)

    // The presenter picks it: pinned for everyone, and Alice hears it is hers.
    #expect(try await server.http("POST", "/api/questions/\(id)/highlight").status == 200)
    try await alice.waitFor("the banner") {
      $0.contains("Now answering your question: Who will vote for this?")
    }
    try await bob.waitFor("the banner") { $0.contains("Now answering: Who will vote for this?") }
    for terminal in [alice, bob] {
      try terminal.press("C-c")
      try await terminal.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    }
  }

  @Test func backEndsWithoutTheRoomShowOwnQuestionsAndSayWhyOnce() async throws {
    let reference = try PeerProcess(script: "reference_backend.py")
    defer { reference.stop() }
    let plain = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--no-extensions"])
    defer { plain.stop() }
    for url in ["ws://127.0.0.1:\(reference.port)/socket", plain.url] {
      let state = HeadlessProcess.freshDirectory()
      let tmux = try Self.terminal(state)
      defer { tmux.kill() }
      try UI.startClient(in: tmux, url: url, state: state, view: nil)
      let screen = try await tmux.waitFor("the notice") {
        $0.contains("This server shows only your own questions.")
      }
      #expect(!screen.contains("Room ·"))
      try tmux.type("Just mine?")
      try tmux.press("Enter")
      try await tmux.waitFor("today's list") { $0.contains(" Unanswered  Just mine?") }
      try tmux.press("C-c")
      try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    }
  }
}
