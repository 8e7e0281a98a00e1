import Foundation
import TestSupport
import Testing

/// The cursor is the focus (for screen readers and braille displays, which follow it, not
/// reverse video): on the selected question's first line after every move in a list, on the
/// help while it shows, on the input line while typing. In tmux, against `qna-server`.
@Suite("qna in a terminal: the cursor follows the focus", .serialized)
struct TerminalFocusTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests

  /// The cursor is at the start of the first row drawn in reverse video (the selection).
  /// Polled: tmux may be read between a frame's rows, or before the key's frame.
  static func expectCursorOnSelection(
    _ terminal: TmuxSession, after key: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    var (rows, cursor) = ([Int](), (x: -1, y: -1))
    for _ in 0..<100 {
      rows = try terminal.reverseRows()
      cursor = try terminal.cursor()
      if cursor.y == rows.first, cursor.x == 0 { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(
      cursor.y == rows.first && cursor.x == 0, "after \(key): cursor \(cursor), selected \(rows)",
      sourceLocation: sourceLocation)
  }

  @Test func theRoomMineAndTheHelpPutTheCursorWhereTheFocusIs() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    #expect(try await server.http("POST", "/control/room/seed?n=40").status == 200)
    let state = HeadlessProcess.freshDirectory()
    let terminal = try Room.terminal(state)
    defer { terminal.kill() }
    try UI.startClient(in: terminal, url: server.url, state: state, view: nil)
    try await terminal.waitFor("the room") {
      $0.contains("Room · popular") && $0.contains("● connected") && $0.contains("Seeded")
    }
    // Nothing selected: the cursor is on the input line (the last row).
    #expect(try terminal.cursor().y == 23)
    for key in ["Down", "Down", "Down", "NPage", "Up", "Home", "End", "PPage"] {
      try terminal.press(key)
      try await Self.expectCursorOnSelection(terminal, after: key)
    }
    // Typing takes the focus to the line typed; a move in the list takes it back.
    try terminal.type("Why")
    try await terminal.waitFor("typed") { $0.contains("Ask a question › Why") }
    #expect(try terminal.cursor() == (20, 23), "after the three letters typed")
    try terminal.press("Down")
    try await Self.expectCursorOnSelection(terminal, after: "Down with text typed")
    try terminal.press("BSpace")
    try await terminal.waitFor("erased") { !$0.contains("Ask a question › Why") }
    #expect(try terminal.cursor().y == 23)

    // The help: the cursor on its first key, and back where it was once it closes.
    try terminal.press("Down")
    try await Self.expectCursorOnSelection(terminal, after: "Down")
    try terminal.press("F1")
    // Drawn whole (tmux may be read between a frame's rows).
    let help = try await terminal.waitFor("the help") { $0.contains("Keys") && $0.contains("└") }
    let cursor = try terminal.cursor()
    let line = UI.lines(help)[cursor.y]
    #expect(line.dropFirst(cursor.x).hasPrefix("Enter"), "the cursor on the first key: \(cursor)")
    try terminal.press("Escape")
    try await Self.expectCursorOnSelection(terminal, after: "the help closed")

    // Mine, in a short terminal so that its questions do not fit: the cursor on the first
    // line shown once it is scrolled, on the input line while it follows the newest.
    try terminal.press("Escape")
    for index in 1...3 {
      try terminal.type("Mine \(index): " + String(repeating: "a long question ", count: 8))
      try terminal.press("Enter")
    }
    try terminal.press("Tab")
    try terminal.resize(columns: 100, rows: 8)
    try await terminal.waitFor("Mine") { $0.contains("Mine") && $0.contains("Mine 3") }
    #expect(try terminal.cursor().y == 7, "following the newest: the input line")
    try terminal.press("Up")
    let scrolled = try await terminal.waitFor("scrolled") { $0.contains("more below") }
    let top = try terminal.cursor()
    #expect(top.x == 0 && top.y >= 1 && top.y < 6, "on the list: \(top)")
    #expect(UI.lines(scrolled)[top.y].contains("a long question"), "\(scrolled)")
    try terminal.press("End")
    try await terminal.waitFor("following again") { !$0.contains("more below") }
    #expect(try terminal.cursor().y == 7)
    try terminal.press("C-c")
  }

  @Test func thePresentersQueuePutsTheCursorOnTheSelection() async throws {
    let token = TerminalPresenterTests.token
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--mock", "--admin-token", token,
    ])
    defer { server.stop() }
    let seeded = try await server.http(
      "POST", "/control/room/seed?n=40", headers: ["Authorization": "Bearer \(token)"])
    #expect(seeded.status == 200)
    let state = HeadlessProcess.freshDirectory()
    let console = try Room.terminal(state)
    defer { console.kill() }
    try console.run(
      "QNA_TOKEN=\(token) '\(HeadlessProcess.qnaPath)' present --url \(server.url) "
        + "--log-file \(state.path)/console.log; echo \"EXIT=$?\"")
    try await console.waitFor("the console") {
      $0.contains("qna present") && $0.contains("● connected") && $0.contains("Seeded")
    }
    for key in ["Down", "Down", "NPage", "Up", "End", "Home"] {
      try console.press(key)
      try await Self.expectCursorOnSelection(console, after: key)
    }
    // Typing an answer: the cursor on the answer's line.
    try console.type("t")
    try await console.waitFor("the answer prompt") { $0.contains("Answer ›") }
    #expect(try console.cursor().y == 23)
    try console.press("Escape")
    try await Self.expectCursorOnSelection(console, after: "the answer dropped")
  }
}
