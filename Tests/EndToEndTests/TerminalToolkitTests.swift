import Foundation
import TestSupport
import Testing

/// The presenter's toolkit as people use it, each at a terminal of their own (tmux): the
/// console announces, the attendee's `qna` and the projector (`qna screen`) show the banner,
/// and a script's `qna --headless` hears it as an event.
@Suite("The presenter's toolkit in terminals", .serialized)
struct TerminalToolkitTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests
  static let token = "toolkit-token-0123"

  @Test func anAnnouncementFromTheConsoleReachesEveryScreenAndIsUndone() async throws {
    // Default settings but for the admin token the console needs.
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--admin-token", Self.token,
    ])
    defer { server.stop() }
    let (aliceState, consoleState, screenState) = (
      HeadlessProcess.freshDirectory(), HeadlessProcess.freshDirectory(),
      HeadlessProcess.freshDirectory()
    )
    let alice = try Room.terminal(aliceState)
    defer { alice.kill() }
    try UI.startClient(in: alice, url: server.url, state: aliceState, view: nil)
    let screen = try TmuxSession(
      columns: 120, rows: 40,
      environment: ["XDG_STATE_HOME": screenState.path, "LC_ALL": "C.UTF-8"])
    defer { screen.kill() }
    try screen.run(
      "'\(HeadlessProcess.qnaPath)' screen --url ws://127.0.0.1:\(server.port); echo \"EXIT=$?\"")
    let headless = try HeadlessProcess(["--url", server.url])
    defer { headless.interrupt() }
    let console = try Room.terminal(consoleState)
    defer { console.kill() }
    try console.run(
      "QNA_TOKEN=\(Self.token) '\(HeadlessProcess.qnaPath)' present --url \(server.url) "
        + "--log-file \(consoleState.path)/console.log; echo \"EXIT=$?\"")
    for terminal in [alice, console] {
      try await terminal.waitFor("connected") { $0.contains("● connected") }
    }
    try await screen.waitFor("the projector") { $0.contains("No question is being answered.") }

    // b, the text, Enter: a banner across Alice's room, right under the header.
    try console.type("b")
    try await console.waitFor("the announcement's prompt") { $0.contains("Announcement ›") }
    try console.type("Coffee at 15:30 in the foyer")
    try console.press("Enter")
    let shown = try await alice.waitFor("the banner") {
      UI.lines($0).dropFirst().first?.contains("Announcement: Coffee at 15:30 in the foyer")
        == true
    }
    #expect(shown.contains("Announcement: Coffee at 15:30 in the foyer"), "and as a notice")
    try await console.waitFor("the console's own banner") {
      UI.lines($0).dropFirst().first?.contains("Coffee at 15:30 in the foyer") == true
    }
    try await screen.waitFor("the projector's banner") {
      $0.contains("Coffee at 15:30 in the foyer")
    }
    _ = try await headless.waitFor("announcement") {
      $0["text"] == "Coffee at 15:30 in the foyer"
    }

    // Replaced: b opens the line with the text shown; Ctrl-U empties it.
    try console.type("b")
    try await console.waitFor("the text shown, to edit") {
      $0.contains("Announcement › Coffee at 15:30 in the foyer")
    }
    try console.press("C-u")
    try console.type("Room B for the next talk")
    try console.press("Enter")
    try await alice.waitFor("the new banner") {
      UI.lines($0).dropFirst().first?.contains("Room B for the next talk") == true
    }
    // u takes it back: the coffee again.
    try console.type("u")
    try await alice.waitFor("the banner undone") {
      UI.lines($0).dropFirst().first?.contains("Coffee at 15:30 in the foyer") == true
    }
    // An empty line clears it: the room starts under the header again.
    try console.type("b")
    try console.press("C-u")
    try console.press("Enter")
    try await alice.waitFor("no banner") { !$0.contains("Coffee at 15:30") }
    try await screen.waitFor("none on the projector") { !$0.contains("Coffee at 15:30") }
    _ = try await headless.waitFor("announcement") { $0.fields["text"] is NSNull }
    // Esc drops what was typed.
    try console.type("b")
    try console.type("Never sent")
    try console.press("Escape")
    try await console.waitFor("dropped") { $0.contains("Announcement dropped.") }
    try await Task.sleep(for: .milliseconds(300))
    #expect(!(try alice.screen()).contains("Never sent"))
  }
}
