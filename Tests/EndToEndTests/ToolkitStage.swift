import Foundation
import TestSupport

/// One room for a toolkit test: a server on its default settings but for the admin token
/// the console needs (and `arguments`), Alice's `qna` in the room view, the presenter's
/// console, and, when asked, `qna screen` on a projector-sized terminal; each in tmux.
struct ToolkitStage {
  static let token = "toolkit-token-0123"
  let server: QnAServerProcess
  let alice: TmuxSession
  let console: TmuxSession
  let screen: TmuxSession?

  static func open(
    _ arguments: [String] = [], screen withScreen: Bool = false, alice aliceOptions: [String] = []
  ) async throws -> ToolkitStage {
    let server = try await QnAServerProcess(
      ["--port", "0", "--db", ":memory:", "--admin-token", token] + arguments)
    let (aliceState, consoleState, screenState) = (
      HeadlessProcess.freshDirectory(), HeadlessProcess.freshDirectory(),
      HeadlessProcess.freshDirectory()
    )
    let alice = try TerminalRoomTests.terminal(aliceState)
    try TerminalUITests.startClient(
      in: alice, url: server.url, state: aliceState, options: aliceOptions, view: nil)
    var screen: TmuxSession?
    if withScreen {
      let projector = try TmuxSession(
        columns: 120, rows: 40,
        environment: ["XDG_STATE_HOME": screenState.path, "LC_ALL": "C.UTF-8"])
      try projector.run(
        "'\(HeadlessProcess.qnaPath)' screen --url ws://127.0.0.1:\(server.port); echo \"EXIT=$?\"")
      screen = projector
    }
    let console = try TerminalRoomTests.terminal(consoleState)
    try console.run(
      "QNA_TOKEN=\(token) '\(HeadlessProcess.qnaPath)' present --url \(server.url) "
        + "--log-file \(consoleState.path)/console.log; echo \"EXIT=$?\"")
    for terminal in [alice, console] {
      try await terminal.waitFor("connected") { $0.contains("● connected") }
    }
    try await screen?.waitFor("the projector") { $0.contains("No question is being answered.") }
    return ToolkitStage(server: server, alice: alice, console: console, screen: screen)
  }

  func close() {
    for terminal in [alice, console] + (screen.map { [$0] } ?? []) { terminal.kill() }
    server.stop()
  }
}
