import Foundation
import TestSupport
import Testing

/// What a hostile server says reaches the screen and the log file escaped: a close reason, an
/// HTTP reason phrase and a redirect's `Location`, each with ESC sequences and an OSC 52
/// clipboard write.
@Suite("qna in a terminal: hostile servers", .serialized)
struct TerminalHostileTests {
  @Test(arguments: ["/hostile-close", "/hostile-status"])
  func hostileTextIsShownEscapedAndLoggedEscaped(path: String) async throws {
    let server = try PeerProcess(script: "fault_server.py")
    defer { server.stop() }
    let state = HeadlessProcess.freshDirectory()
    let log = state.appendingPathComponent("qna.log").path
    let tmux = try TmuxSession(
      columns: 200, rows: 12, environment: ["XDG_STATE_HOME": state.path, "LC_ALL": "C.UTF-8"])
    defer { tmux.kill() }
    try TerminalUITests.startClient(
      in: tmux, url: "ws://127.0.0.1:\(server.port)\(path)", state: state,
      options: ["--no-reconnect", "--log-file", log])
    let screen = try await tmux.waitFor("offline with the reason") { $0.contains("offline") }
    let styled = try tmux.tmux(["capture-pane", "-t", "main", "-p", "-e"])
    #expect(!styled.contains("\u{1B}]52"), "no OSC 52 reached the terminal")
    if path == "/hostile-close" {
      #expect(screen.contains(#"\e[2J\e]52;c;"#), "\(screen)")
    }
    try tmux.press("C-c")
    _ = try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    let written = try Data(contentsOf: URL(fileURLWithPath: log))
    #expect(!written.contains(0x1B), "no raw escape in the log")
    let text = String(decoding: written, as: UTF8.self)
    #expect(text.contains(#""event":"disconnected""#), "the connection's end is logged")
    if path == "/hostile-close" {
      #expect(text.contains(#"\u001b]52;c;"#), "escaped, as JSON escapes it")
    }
  }
}
