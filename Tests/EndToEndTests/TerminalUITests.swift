import Foundation
import InteropPeers
import Testing

/// `qna` as a person uses it: in a tmux pane at 100×30, keys in with send-keys, the screen
/// read back with capture-pane, against the built `qna-server --mock`.
@Suite("qna in a terminal", .serialized)
struct TerminalUITests {
  static let quickReconnect = [
    "--ping-interval", "1s", "--ping-timeout", "2s", "--max-backoff", "1s",
  ]

  static func serverArguments(port: Int, database: String) -> [String] {
    ["--port", "\(port)", "--mock", "--db", database, "--rate-limit", "1000"]
  }

  /// Starts `qna` in the pane; when it exits the shell prints its status, and whether the
  /// terminal's modes are back to what they were (spelled so that the command line itself
  /// does not match).
  static func startClient(in tmux: TmuxSession, url: String, state: URL) throws {
    let modes = state.appendingPathComponent("tty-modes").path
    try tmux.run(
      "PS1='$ '; stty -g > \(modes); '\(HeadlessProcess.qnaPath)' --url \(url) "
        + quickReconnect.joined(separator: " ")
        + "; echo \"EXIT=$?\"; stty -g | cmp -s - \(modes) && echo TTY=RE''STORED")
  }

  static func lines(_ screen: String) -> [Substring] {
    screen.split(separator: "\n", omittingEmptySubsequences: false)
  }

  @Test func askAnswerReconnectResizeAndQuit() async throws {
    let state = HeadlessProcess.freshDirectory()
    let database = state.appendingPathComponent("qna.sqlite").path
    var server = try await QnAServerProcess(Self.serverArguments(port: 0, database: database))
    let port = server.port
    let tmux = try TmuxSession(
      columns: 100, rows: 30, environment: ["XDG_STATE_HOME": state.path, "LC_ALL": "C.UTF-8"])
    defer { tmux.kill() }
    try Self.startClient(in: tmux, url: server.url, state: state)
    try await tmux.waitFor("connected") { $0.contains("● connected") }

    try tmux.type("¿Qué tal, Zoë? 日本のQ&A")
    try tmux.press("Enter")
    try await tmux.waitFor("the question, unanswered") {
      $0.contains(" Unanswered  ¿Qué tal, Zoë? 日本のQ&A")
    }
    let id = try #require(try await server.questions().first?["id"] as? String)
    #expect(try await server.http("POST", "/api/questions/\(id)/answer").status == 200)
    try await tmux.waitFor("answered within 2 s", seconds: 2) {
      $0.contains(" Answered    ¿Qué tal, Zoë? 日本のQ&A")
    }

    // The server goes away (SIGTERM: close 1001), then comes back on the same port.
    server.stop()
    try await tmux.waitFor("reconnecting") { $0.contains("reconnecting in") }
    server = try await QnAServerProcess(Self.serverArguments(port: port, database: database))
    try await tmux.waitFor("connected again", seconds: 20) { $0.contains("● connected") }

    try tmux.resize(columns: 60, rows: 20)
    try await tmux.waitFor("the layout at 60×20") { screen in
      let rows = Self.lines(screen)
      return rows.count >= 20 && rows[0].hasPrefix(" qna") && rows[0].count <= 60
        && rows[1].hasPrefix(" Answered    ¿Qué tal") && rows[18].hasPrefix(" 1 asked")
        && rows[19].hasPrefix("Ask a question ›")
    }
    try tmux.resize(columns: 100, rows: 30)
    try await tmux.waitFor("the layout at 100×30") { Self.lines($0)[28].hasPrefix(" 1 asked") }

    try await measureAnswerToScreen(tmux, server)

    try tmux.press("C-c")
    let screen = try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    #expect(screen.contains("EXIT=0"))
    #expect(Self.lines(screen).last { !$0.isEmpty } == "$")
  }

  /// Answer-to-screen latency over 50 answers: from the presenter's answer request until
  /// the pane shows the new count. Printed, not asserted (`make bench` reports it too).
  func measureAnswerToScreen(_ tmux: TmuxSession, _ server: QnAServerProcess) async throws {
    let count = 50
    for index in 1...count {
      try tmux.type("Latency question \(index)")
      try tmux.press("Enter")
    }
    try await tmux.waitFor("all asked") {
      $0.contains(" \(count + 1) asked · 1 answered · 0 pending")
    }
    let ids = try await server.questions()
      .filter { ($0["content"] as? String)?.hasPrefix("Latency question") == true }
      .compactMap { $0["id"] as? String }
    #expect(ids.count == count)
    var samples = LatencySamples()
    for (index, id) in ids.enumerated() {
      try await samples.measure {
        _ = try await server.http("POST", "/api/questions/\(id)/answer")
      } until: {
        try await tmux.waitFor("answer \(index + 1) on screen", interval: .milliseconds(1)) {
          $0.contains("· \(index + 2) answered ·")
        }
      }
    }
    print("answer-to-screen latency (debug build, tmux capture-pane polling): \(samples.summary)")
  }
}
