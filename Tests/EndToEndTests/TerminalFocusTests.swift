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

  /// How long a key's frame may take: the whole test process's load, not a count of reads.
  static let patience = Duration.seconds(10)

  /// The rows drawn in reverse video, and the cursor.
  typealias TmuxFrame = (rows: [Int], cursor: (x: Int, y: Int))

  /// The rows drawn in reverse video and the cursor, of one frame: the rows are read before
  /// and after the cursor until both agree (tmux may be read between a frame's rows, and
  /// the cursor moves last).
  static func frame(_ terminal: TmuxSession) throws -> TmuxFrame {
    var rows = try terminal.reverseRows()
    var cursor = try terminal.cursor()
    for _ in 0..<20 {
      let again = try terminal.reverseRows()
      if again == rows { break }
      rows = again
      cursor = try terminal.cursor()
    }
    return (rows, cursor)
  }

  /// Reads frames until one `holds`, or `patience` runs out; returns the last one read.
  static func awaitFrame(_ terminal: TmuxSession, until holds: (TmuxFrame) -> Bool)
    async throws -> TmuxFrame
  {
    var read = try Self.frame(terminal)
    let deadline = ContinuousClock.now + patience
    while !holds(read), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
      read = try Self.frame(terminal)
    }
    return read
  }

  /// Whether a frame has the cursor at the start of its first reverse-video row.
  static func onSelection(_ read: TmuxFrame) -> Bool {
    read.cursor.x == 0 && read.cursor.y == read.rows.first
  }

  /// Presses `key`, waits for its frame (the selection drawn somewhere else than before),
  /// and expects the cursor at the start of the first reverse-video row, both of one frame.
  static func press(
    _ key: String, in terminal: TmuxSession, moves: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let before = try Self.frame(terminal).rows
    try terminal.press(key)
    let after = try await Self.awaitFrame(terminal) {
      (!moves || $0.rows != before) && Self.onSelection($0)
    }
    #expect(
      !moves || after.rows != before, "\(key) moved nothing: \(after.rows)",
      sourceLocation: sourceLocation)
    #expect(
      Self.onSelection(after), "after \(key): cursor \(after.cursor), selected \(after.rows)",
      sourceLocation: sourceLocation)
  }

  /// Polls the cursor until `holds` (the cursor moves last in a frame), then expects it.
  static func expectCursor(
    _ terminal: TmuxSession, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ holds: ((x: Int, y: Int)) -> Bool
  ) async throws {
    var cursor = try terminal.cursor()
    let deadline = ContinuousClock.now + patience
    while !holds(cursor), ContinuousClock.now < deadline {
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
    // The whole room, counted in the footer (its questions, not its people).
    try await terminal.waitFor("the room") {
      $0.contains("Room · popular") && $0.contains("● connected")
        && $0.contains(" 40 questions in the room")
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
    // Drawn whole (tmux may be read between a frame's rows): 24 rows are too few for every
    // key, so its title says how to scroll and its bottom border what is off it.
    let help = try await terminal.waitFor("the help") {
      $0.contains("Keys (↑ ↓ scroll)") && $0.contains("↓ more below ─┘")
    }
    try await Self.expectCursor(terminal, "on the help's first key") { cursor in
      UI.lines(help)[cursor.y].dropFirst(cursor.x).hasPrefix("Enter")
    }
    // End scrolls to the last key; the cursor is on the first key shown then.
    try terminal.press("End")
    let end = try await terminal.waitFor("the help's last keys") {
      $0.contains("your question · answered") && $0.contains("↑ more above ─┘")
    }
    try await Self.expectCursor(terminal, "on the first key shown") { cursor in
      UI.lines(end)[cursor.y].dropFirst(cursor.x).hasPrefix("+ (empty line), Ctrl-V")
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
    // The whole room in the list (its count in the footer), then its first frame settled:
    // the top question selected from the start, the cursor on it before any key.
    try await console.waitFor("the console") {
      $0.contains("qna present") && $0.contains("● connected") && $0.contains("[Live 40]")
    }
    let first = try await Self.awaitFrame(console) {
      Self.onSelection($0) && $0.rows.first == 1
    }
    #expect(
      Self.onSelection(first) && first.rows.first == 1,
      "the top question selected: cursor \(first.cursor), selected \(first.rows)")
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
