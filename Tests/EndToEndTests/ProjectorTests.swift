import Foundation
import TestSupport
import Testing

/// The room on a projector from a terminal, and the join address's QR code as the speaker's
/// terminal shows it: each captured from tmux, drawn as an image, and read by zbarimg.
@Suite("The projector in a terminal, and QR codes to join", .serialized)
struct ProjectorTests {
  typealias Room = TerminalRoomTests

  /// A session on a server of its own: the server, the code and the presenter's token.
  static func session(_ title: String, in directory: URL) async throws -> (
    QnAServerProcess, String, String
  ) {
    let database = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    let made = try ProgramRun(
      QnAServerProcess.path, ["session", "create", title, "--db", database])
    #expect(made.status == 0, "\(made.errors)")
    let fields = Self.fields(made.output)
    return (server, try #require(fields["code"]), try #require(fields["token"]))
  }

  static func fields(_ output: String) -> [String: String] {
    Dictionary(
      output.split(separator: "\n").compactMap { line -> (String, String)? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
      }, uniquingKeysWith: { a, _ in a })
  }

  @Test func qnaScreenShowsTheHighlightTheRoomAndAReadableCode() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let (server, code, token) = try await Self.session("Swift on Linux", in: directory)
    defer { server.stop() }
    let serverURL = "ws://127.0.0.1:\(server.port)"
    let screen = try TmuxSession(
      columns: 120, rows: 40, environment: ["XDG_STATE_HOME": directory.path, "LC_ALL": "C.UTF-8"])
    defer { screen.kill() }
    try screen.run(
      "'\(HeadlessProcess.qnaPath)' screen \(code) --url \(serverURL); echo \"EXIT=$?\"")
    try await screen.waitFor("the screen, connected") {
      $0.contains("Swift on Linux") && $0.contains("connected")
        && $0.contains("No question is being answered.")
    }
    // Two attendees ask; one question is highlighted.
    let attendees = try (0..<2).map { index in
      try Room.terminal(HeadlessProcess.freshDirectory())
    }
    defer { for attendee in attendees { attendee.kill() } }
    for (index, attendee) in attendees.enumerated() {
      try attendee.run(
        "'\(HeadlessProcess.qnaPath)' join \(code) --url \(serverURL); echo \"EXIT=$?\"")
      try await attendee.waitFor("the room") { $0.contains("● connected") }
      try attendee.type(index == 0 ? "Why Swift on the server?" : "What about Windows?")
      try attendee.press("Enter")
    }
    try await screen.waitFor("both questions, and the room's size") {
      $0.contains("Why Swift on the server?") && $0.contains("What about Windows?")
        && $0.contains("2 people in the room")
    }
    let list = try await server.http(
      "GET", "/s/\(code)/api/questions", headers: ["Authorization": "Bearer \(token)"])
    let questions =
      try JSONSerialization.jsonObject(with: Data(list.body.utf8)) as? [[String: Any]] ?? []
    let id = try #require(
      questions.first { $0["content"] as? String == "Why Swift on the server?" }?["id"] as? String)
    let highlight = try await server.http(
      "POST", "/s/\(code)/api/questions/\(id)/highlight",
      headers: ["Authorization": "Bearer \(token)"])
    #expect(highlight.status == 200)
    let shown = try await screen.waitFor("the highlight") {
      $0.contains("Now answering:") && $0.contains("Up next")
    }
    let lines = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let now = try #require(lines.firstIndex { $0.contains("Now answering:") })
    #expect(lines[now + 1].contains("Why Swift on the server?"))
    #expect(lines.contains { $0.contains("▲ 0") && $0.contains("What about Windows?") })
    let scratch = try TemporaryDirectory()
    let read = try QRReader.decode(cells: QRReader.cells(halfBlocks: lines), in: scratch)
    #expect(read == [Array("http://127.0.0.1:\(server.port)/s/\(code)/".utf8)])
    // It takes no input but its way out.
    try screen.type("x")
    try screen.press("q")
    try await screen.waitFor("the shell back") { $0.contains("EXIT=0") }
  }

  /// Without a code, the server's default room, and the QR code of its page, `/room/`.
  @Test func qnaScreenWithoutACodeShowsTheDefaultRoom() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let screen = try TmuxSession(
      columns: 120, rows: 40, environment: ["XDG_STATE_HOME": directory.path, "LC_ALL": "C.UTF-8"])
    defer { screen.kill() }
    try screen.run(
      "'\(HeadlessProcess.qnaPath)' screen --url ws://127.0.0.1:\(server.port); echo \"EXIT=$?\"")
    let shown = try await screen.waitFor("the default room, connected") {
      $0.contains("connected") && $0.contains("No question is being answered.")
    }
    let address = "http://127.0.0.1:\(server.port)/room/"
    #expect(shown.contains(address))
    let lines = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let scratch = try TemporaryDirectory()
    #expect(
      try QRReader.decode(cells: QRReader.cells(halfBlocks: lines), in: scratch)
        == [Array(address.utf8)])
    try screen.press("C-c")
    try await screen.waitFor("the shell back") { $0.contains("EXIT=") }
  }

  /// The presenter's console: `j` shows the join code, the address and a QR code that reads
  /// as it; any key goes back to the room.
  @Test func theConsoleShowsHowToJoinOnJ() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let (server, code, token) = try await Self.session("Console", in: directory)
    defer { server.stop() }
    let console = try TmuxSession(
      columns: 100, rows: 45, environment: ["XDG_STATE_HOME": directory.path, "LC_ALL": "C.UTF-8"])
    defer { console.kill() }
    try console.run(
      "QNA_TOKEN=\(token) '\(HeadlessProcess.qnaPath)' present \(code) "
        + "--url ws://127.0.0.1:\(server.port); echo \"EXIT=$?\"")
    try await console.waitFor("the console") {
      $0.contains("qna present") && $0.contains("connected")
    }
    try console.type("j")
    let address = "http://127.0.0.1:\(server.port)/s/\(code)/"
    // The code's line can be drawn before the address's (a clean CI run captured it so).
    var shown = try await console.waitFor("how to join") {
      $0.contains("Join code: \(code)") && $0.contains(address)
    }
    // The text can be captured before the code's last rows are drawn (seen once on CI):
    // read again until the screen holds a whole code, for at most five seconds.
    let scratch = try TemporaryDirectory()
    var read: [[UInt8]] = []
    for _ in 0..<50 {
      let lines = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      read = (try? QRReader.decode(cells: QRReader.cells(halfBlocks: lines), in: scratch)) ?? []
      if !read.isEmpty { break }
      try await Task.sleep(for: .milliseconds(100))
      shown = try console.screen()
    }
    #expect(read == [Array(address.utf8)])
    try console.press("Escape")
    try await console.waitFor("the room again") {
      !$0.contains("Join code: \(code)") && $0.contains("qna present")
    }
  }

  /// `session create` in a terminal: the code, the token, the join address, and its QR
  /// code; a 200-character --public-url too. Through a pipe, the three lines only.
  @Test func sessionCreatePrintsTheJoinAddressAndItsCode() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let database = directory.appendingPathComponent("qna.sqlite").path
    let host =
      "qna-" + String(repeating: "a", count: 58) + "." + String(repeating: "b", count: 62)
      + "." + String(repeating: "c", count: 50) + ".example:8443"
    let scratch = try TemporaryDirectory()
    for publicURL in [nil, "https://\(host)/"] {
      let terminal = try TmuxSession(
        columns: 260, rows: 70, environment: ["LC_ALL": "C.UTF-8"])
      defer { terminal.kill() }
      let option = publicURL.map { " --public-url '\($0)'" } ?? ""
      try terminal.run(
        "clear; '\(QnAServerProcess.path)' session create Keynote --db \(database)\(option)"
          + " 2>/dev/null; echo EXIT=$?")
      let screen = try await terminal.waitFor("the code") { $0.contains("EXIT=0") }
      let fields = Self.fields(screen)
      let code = try #require(fields["code"])
      let join = try #require(fields["join"])
      let expected =
        (publicURL.map { String($0.dropLast()) } ?? "http://127.0.0.1:8080") + "/s/\(code)/"
      #expect(join == expected)
      #expect(publicURL == nil || join.count >= 200, "\(join.count) characters")
      let token = try #require(fields["token"])
      #expect(!screen.contains(token) || screen.components(separatedBy: token).count == 2)
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let read = try QRReader.decode(cells: QRReader.cells(halfBlocks: lines), in: scratch)
      #expect(read == [Array(join.utf8)])
    }
    let piped = try ProgramRun(
      QnAServerProcess.path, ["session", "create", "Piped", "--db", database])
    #expect(piped.status == 0)
    #expect(
      piped.output.split(separator: "\n").map { $0.split(separator: ":")[0] } == [
        "code", "token", "join",
      ])
    let refused = try ProgramRun(
      QnAServerProcess.path,
      ["session", "create", "Bad", "--db", database, "--public-url", "https://x.example/path"])
    #expect(refused.status == 64)
  }
}
