import Foundation
import TestSupport
import Testing

/// `qna --notify`: the bytes it writes to its terminal, recorded by `script(1)` between qna
/// and tmux: one notification per answered question outside tmux, none inside tmux unless
/// tmux passes escape sequences through, and then wrapped for it.
@Suite("qna in a terminal: desktop notifications", .serialized)
struct TerminalNotifyTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests

  /// Runs qna under `script`, which records every byte qna writes; `environment` is set
  /// (or, where empty, unset) for qna alone.
  static func start(
    _ terminal: TmuxSession, url: String, state: URL, record: String,
    environment: [String: String]
  ) throws {
    // env takes its -u options before its assignments.
    let sorted = environment.sorted { $0.key < $1.key }
    let settings =
      sorted.filter { $0.value.isEmpty }.map { "-u \($0.key)" }
      + sorted.filter { !$0.value.isEmpty }.map { "\($0.key)=\($0.value)" }
    let command =
      "env \(settings.joined(separator: " ")) '\(HeadlessProcess.qnaPath)' --notify "
      + "--url \(url) --view mine --log-file \(state.path)/qna.log"
    // The marker split by quotes, so that the command line itself never shows it.
    try terminal.run("script -q -f -c \"\(command)\" \(record); echo QNA''ENDED=$?")
  }

  /// Asks `text` at the terminal and answers it through the API; returns its id.
  static func askAndAnswer(
    _ text: String, _ terminal: TmuxSession, _ server: QnAServerProcess
  ) async throws {
    try terminal.type(text)
    try terminal.press("Enter")
    try await terminal.waitFor("\(text) stored") {
      Room.line($0, text)?.contains("Unanswered") == true
    }
    let stored = try await server.questions()
    let id = try #require(stored.first { $0["content"] as? String == text }?["id"] as? String)
    #expect(try await server.http("POST", "/api/questions/\(id)/answer").status == 200)
    try await terminal.waitFor("\(text) answered") {
      Room.line($0, text)?.contains("Answered") == true
    }
  }

  static func recorded(_ path: String) throws -> String {
    String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
  }

  static func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// One run of qna under `script`: `questions` asked and answered, then quit; returns the
  /// bytes qna wrote.
  static func session(
    _ terminal: TmuxSession, _ server: QnAServerProcess, state: URL, name: String,
    environment: [String: String], questions: [String]
  ) async throws -> String {
    try terminal.run("clear")
    let record = state.appendingPathComponent("\(name).bytes").path
    try start(terminal, url: server.url, state: state, record: record, environment: environment)
    try await terminal.waitFor("qna, \(name)") {
      $0.contains("● connected") && !$0.contains("QNAENDED=")
    }
    for question in questions { try await askAndAnswer(question, terminal, server) }
    try terminal.press("C-c")
    try await terminal.waitFor("qna ended") { $0.contains("QNAENDED=") }
    return try recorded(record)
  }

  @Test func onceForEachAnsweredQuestionOutsideTmuxNeverInsideWithoutPassthrough()
    async throws
  {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    defer { server.stop() }
    let state = HeadlessProcess.freshDirectory()
    let terminal = try Room.terminal(state)
    defer { terminal.kill() }
    let iTerm = ["TERM_PROGRAM": "iTerm.app"]

    // Outside tmux, in iTerm2 (as qna sees it): OSC 9, once per answer.
    let bytes = try await Self.session(
      terminal, server, state: state, name: "outside",
      environment: iTerm.merging(["TMUX": "", "TMUX_PANE": "", "TERM": "xterm-256color"]) { $1 },
      questions: ["First one?", "Second one?"])
    #expect(Self.count("\u{1B}]9;qna: Your question was answered: First one?\u{7}", in: bytes) == 1)
    #expect(
      Self.count("\u{1B}]9;qna: Your question was answered: Second one?\u{7}", in: bytes) == 1)
    #expect(Self.count("\u{1B}]9;", in: bytes) == 2, "no other notification")

    // Inside tmux without passthrough (its default): nothing, tmux would swallow it.
    let quiet = try await Self.session(
      terminal, server, state: state, name: "inside", environment: iTerm,
      questions: ["Third one?"])
    #expect(!quiet.contains("\u{1B}]9;") && !quiet.contains("Ptmux;"))

    // With `allow-passthrough on`: wrapped for tmux, its escapes doubled.
    try terminal.tmux(["set", "-g", "allow-passthrough", "on"])
    let wrapped = try await Self.session(
      terminal, server, state: state, name: "through", environment: iTerm,
      questions: ["Fourth one?"])
    #expect(
      Self.count(
        "\u{1B}Ptmux;\u{1B}\u{1B}]9;qna: Your question was answered: Fourth one?\u{7}\u{1B}\\",
        in: wrapped) == 1)
  }
}
