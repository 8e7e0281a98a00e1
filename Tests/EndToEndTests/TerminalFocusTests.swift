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

  /// Presses `key`, waits for its frame (the selection drawn somewhere else than before),
  /// and expects the cursor at the start of the first reverse-video row. Polled: tmux may be
  /// read between a frame's rows.
  static func press(
    _ key: String, in terminal: TmuxSession, moves: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let before = try terminal.reverseRows()
    try terminal.press(key)
    var (rows, cursor) = ([Int](), (x: -1, y: -1))
    for _ in 0..<150 {
      rows = try terminal.reverseRows()
      cursor = try terminal.cursor()
      if !rows.isEmpty, !moves || rows != before, cursor.y == rows.first, cursor.x == 0 { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(
      !moves || rows != before, "\(key) moved nothing: \(rows)", sourceLocation: sourceLocation)
    #expect(
      cursor.y == rows.first && cursor.x == 0, "after \(key): cursor \(cursor), selected \(rows)",
      sourceLocation: sourceLocation)
  }

  /// Polls the cursor until `holds` (the cursor moves last in a frame), then expects it.
  static func expectCursor(
    _ terminal: TmuxSession, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ holds: ((x: Int, y: Int)) -> Bool
  ) async throws {
    var cursor = try terminal.cursor()
    for _ in 0..<150 where !holds(cursor) {
      try await Task.sleep(for: .milliseconds(20))
      cursor = try terminal.cursor()
    }
    #expect(holds(cursor), "\(what): the cursor at \(cursor)", sourceLocation: sourceLocation)
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
    try await Self.expectCursor(terminal, "nothing selected") { $0.y == 23 }
    for key in ["Down", "Down", "Down", "NPage", "Up", "Home", "End", "PPage"] {
      try await Self.press(key, in: terminal)
    }
    // Typing takes the focus to the line typed; a move in the list takes it back.
    try terminal.type("Why")
    try await terminal.waitFor("typed") { $0.contains("Ask a question › Why") }
    try await Self.expectCursor(terminal, "after the three letters typed") { $0 == (20, 23) }
    try await Self.press("Down", in: terminal)
    try terminal.press("BSpace")
    try await terminal.waitFor("erased") { !$0.contains("Ask a question › Why") }
    try await Self.expectCursor(terminal, "after an edit") { $0 == (19, 23) }

    // The help: the cursor on its first key, and back where it was once it closes.
    try await Self.press("Down", in: terminal)
    try terminal.press("F1")
    // Drawn whole (tmux may be read between a frame's rows).
    let help = try await terminal.waitFor("the help") { $0.contains("Keys") && $0.contains("└") }
    try await Self.expectCursor(terminal, "on the help's first key") { cursor in
      UI.lines(help)[cursor.y].dropFirst(cursor.x).hasPrefix("Enter")
    }
    try await Self.press("Escape", in: terminal)

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
    try await Self.expectCursor(terminal, "following the newest: the input line") { $0.y == 7 }
    try terminal.press("Up")
    let scrolled = try await terminal.waitFor("scrolled") { $0.contains("more below") }
    try await Self.expectCursor(terminal, "on the list's top line") { top in
      top.x == 0 && top.y >= 1 && top.y < 6 && UI.lines(scrolled)[top.y].contains("a long question")
    }
    try terminal.press("End")
    try await terminal.waitFor("following again") { !$0.contains("more below") }
    try await Self.expectCursor(terminal, "following again") { $0.y == 7 }
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
      try await Self.press(key, in: console)
    }
    // Typing an answer: the cursor on the answer's line.
    try console.type("t")
    try await console.waitFor("the answer prompt") { $0.contains("Answer ›") }
    try await Self.expectCursor(console, "on the answer's line") { $0 == (9, 23) }
    try await Self.press("Escape", in: console, moves: false)
  }
}
