import Foundation
import TestSupport
import Testing

/// `qna` as a person uses it: in a tmux pane at 100×30, keys in with send-keys, the screen
/// read back with capture-pane, against the built `qna-server --mock`.
@Suite("qna in a terminal", .serialized)
struct TerminalUITests {
  static let quickReconnect = [
    "--ping-interval", "1s", "--ping-timeout", "2s", "--max-backoff", "1s",
  ]

  /// The server as a user gets it: no limit raised.
  static func serverArguments(port: Int, database: String) -> [String] {
    ["--port", "\(port)", "--mock", "--db", database]
  }

  /// Starts `qna` in the pane; when it exits the shell prints its status, and whether the
  /// terminal's modes are back to what they were (spelled so that the command line itself
  /// does not match).
  /// These tests follow the attendee's own questions through their states, which the Mine
  /// view shows: `view` is "mine" unless a test passes nil for the default (the room).
  static func startClient(
    in tmux: TmuxSession, url: String, state: URL, options: [String] = [],
    view: String? = "mine"
  ) throws {
    let modes = state.appendingPathComponent("tty-modes").path
    let viewOption = view.map { ["--view", $0] } ?? []
    try tmux.run(
      "PS1='$ '; stty -g > \(modes); '\(HeadlessProcess.qnaPath)' --url \(url) "
        + (quickReconnect + viewOption + options).joined(separator: " ")
        + "; echo \"EXIT=$?\"; stty -g | cmp -s - \(modes) && echo TTY=RE''STORED")
  }

  static func lines(_ screen: String) -> [Substring] {
    screen.split(separator: "\n", omittingEmptySubsequences: false)
  }

  @Test func askAnswerReconnectResizeAndQuit() async throws {
    let state = HeadlessProcess.freshDirectory()
    let database = state.appendingPathComponent("qna.sqlite").path
    var server = try await QnAServerProcess(Self.serverArguments(port: 0, database: database))
    // The one running when the test ends, whichever it is.
    defer { server.stop() }
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
    // The shell prints its prompt a moment after the line that says the modes are restored.
    let screen = try await tmux.waitFor("the shell back") {
      $0.contains("TTY=RESTORED") && Self.lines($0).last { !$0.isEmpty } == "$"
    }
    #expect(screen.contains("EXIT=0"))
    // The log went to its file, never to the screen.
    let log = try String(
      contentsOf: state.appendingPathComponent("qna/qna.log"), encoding: .utf8)
    #expect(log.contains("qna starting: \(server.url)") && log.contains("qna stopped"))
    #expect(!screen.contains("qna starting"))
  }

  /// Answer-to-screen latency over 50 answers: from the presenter's answer request until
  /// the pane shows the new count. Printed, not asserted (`make bench` reports it too).
  func measureAnswerToScreen(_ tmux: TmuxSession, _ server: QnAServerProcess) async throws {
    let samples = try await AnswerLatency.measure(
      tmux, server, allAsked: { $0.contains(" 51 asked · 1 answered · 0 pending") },
      shown: { number, screen in screen.contains("· \(number + 1) answered ·") })
    print("answer-to-screen latency (debug build, tmux capture-pane polling): \(samples.summary)")
  }

  /// Starts the client against a fresh server and waits until it is connected.
  static func connectedClient(
    options: [String] = [], environment: [String: String] = [:], rows: Int = 30,
    serverOptions: [String] = []
  ) async throws -> (TmuxSession, QnAServerProcess, URL) {
    let state = HeadlessProcess.freshDirectory()
    let server = try await QnAServerProcess(
      Self.serverArguments(port: 0, database: ":memory:") + serverOptions)
    let tmux = try TmuxSession(
      rows: rows,
      environment: ["XDG_STATE_HOME": state.path, "LC_ALL": "C.UTF-8"].merging(environment) { $1 })
    try Self.startClient(in: tmux, url: server.url, state: state, options: options)
    try await tmux.waitFor("connected") { $0.contains("● connected") }
    return (tmux, server, state)
  }

  /// Both sides' logs, for a wait that timed out: the server's, and qna's under `state`.
  static func logs(of server: QnAServerProcess, state: URL) -> String {
    let client = state.appendingPathComponent("qna/qna.log")
    return "qna-server's log:\n\(server.log)\nqna's log:\n"
      + ((try? String(contentsOf: client, encoding: .utf8)) ?? "(none)")
  }

  static func clientPID(_ tmux: TmuxSession) throws -> pid_t {
    try #require(try tmux.commandsRunning().first)
  }

  @Test(arguments: [(SIGTERM, "EXIT=143"), (SIGHUP, "EXIT=129"), (SIGINT, "EXIT=130")])
  func aSignalRestoresTheTerminal(signal: Int32, exit: String) async throws {
    let (tmux, server, _) = try await Self.connectedClient()
    defer { server.stop() }
    kill(try Self.clientPID(tmux), signal)
    let screen = try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    #expect(screen.contains(exit))
  }

  @Test func aCrashStillRestoresTheTerminal() async throws {
    let (tmux, server, _) = try await Self.connectedClient()
    defer { server.stop() }
    kill(try Self.clientPID(tmux), SIGABRT)
    let screen = try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    #expect(screen.contains("qna: crashed; the terminal was restored"))
    #expect(screen.contains("EXIT=134"))
  }

  @Test func idleClientSleeps() async throws {
    let (tmux, server, _) = try await Self.connectedClient()
    defer { server.stop() }
    let pid = try Self.clientPID(tmux)
    func cpuTicks() throws -> Int {
      let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
      let fields = stat[stat.range(of: ") ", options: .backwards)!.upperBound...]
        .split(separator: " ")
      // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name.
      return Int(fields[11])! + Int(fields[12])!
    }
    let before = try cpuTicks()
    try await Task.sleep(for: .seconds(3))
    let used = try cpuTicks() - before
    // A busy loop would use about 300 ticks in 3 s; a ping a second costs a few.
    #expect(used < 30, "\(used) ticks of CPU in 3 s idle")
    try tmux.press("C-c")
    try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
  }

  @Test func quittingOfflineAsksThenKeepsTheQuestionForTheNextRun() async throws {
    let (tmux, server, state) = try await Self.connectedClient()
    let url = server.url
    server.stop()
    try await tmux.waitFor("reconnecting") { $0.contains("reconnecting in") }
    try tmux.type("Typed while offline")
    try tmux.press("Enter")
    try await tmux.waitFor("queued") { $0.contains(" Queued      Typed while offline") }
    try tmux.press("C-d")
    try await tmux.waitFor("the question about quitting") {
      $0.contains("Quit with 1 question not sent? y/n (it is kept and sent the next time qna")
    }
    try tmux.press("n")
    try await tmux.waitFor("back to the list") { !$0.contains("Quit with") }
    try tmux.press("C-c")
    try await tmux.waitFor("the question again") { $0.contains("Quit with 1 question") }
    try tmux.press("y")
    let screen = try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
    #expect(screen.contains("EXIT=0"))

    // The next run, with the server back on the same port, sends it.
    let port = try #require(Int(url.split(separator: ":").last!.prefix { $0.isNumber }))
    let back = try await QnAServerProcess(Self.serverArguments(port: port, database: ":memory:"))
    defer { back.stop() }
    try tmux.run("clear")
    try Self.startClient(in: tmux, url: url, state: state)
    try await tmux.waitFor("sent and created", evidence: Self.logs(of: back, state: state)) {
      $0.contains(" Unanswered  Typed while offline")
    }
    #expect(
      try await back.questions().compactMap { $0["content"] as? String } == ["Typed while offline"])
    try tmux.press("C-c")
    try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
  }

  @Test func mouseWheelScrollsPasteIsOneQuestionAndTheBellRings() async throws {
    let (tmux, server, _) = try await Self.connectedClient(options: ["--bell"], rows: 12)
    defer { server.stop() }
    for number in 1...20 {
      try tmux.type("q \(number)")
      try tmux.press("Enter")
    }
    try await tmux.waitFor("the newest at the bottom") { Self.lines($0)[9] == " Unanswered  q 20" }
    // A wheel-up report as a terminal sends it (X10: ESC [ M, button 64+32, column, row).
    try tmux.tmux(["send-keys", "-t", "main", "-H", "1b", "5b", "4d", "60", "21", "21"])
    try await tmux.waitFor("scrolled up three rows") {
      Self.lines($0)[9] == " Unanswered  q 17" && $0.contains("↓ more below: End")
    }
    try tmux.press("End")
    try await tmux.waitFor("following again") { Self.lines($0)[9] == " Unanswered  q 20" }

    // tmux pastes with the bracketed-paste markers qna asked for: the line break is a space.
    try tmux.tmux(["set-buffer", "pasted line one\nline two"])
    try tmux.tmux(["paste-buffer", "-p", "-t", "main"])
    try await tmux.waitFor("one line in the input") {
      Self.lines($0)[11] == "Ask a question › pasted line one line two"
    }
    try tmux.press("Enter")
    try await tmux.waitFor("asked as one question") {
      $0.contains(" Unanswered  pasted line one line two")
    }

    // A key sequence this terminal type does not describe is dropped, not typed.
    try tmux.tmux(["send-keys", "-t", "main", "-H", "1b", "5b", "39", "39", "3b", "35", "7e"])
    try tmux.type("x")
    try await tmux.waitFor("only the x typed") { Self.lines($0)[11] == "Ask a question › x" }
    try tmux.press("BSpace")

    #expect(try tmux.tmux(["display", "-p", "-t", "main", "#{window_bell_flag}"]) == "0\n")
    let id = try #require(try await server.questions().first?["id"] as? String)
    #expect(try await server.http("POST", "/api/questions/\(id)/answer").status == 200)
    try await tmux.waitFor("the bell") { _ in
      (try? tmux.tmux(["display", "-p", "-t", "main", "#{window_bell_flag}"])) == "1\n"
    }
    try tmux.press("C-c")
    try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
  }

  @Test func noColorMeansAttributesOnly() async throws {
    let (tmux, server, _) = try await Self.connectedClient(environment: ["NO_COLOR": "1"])
    defer { server.stop() }
    try tmux.type("Monochrome?")
    try tmux.press("Enter")
    try await tmux.waitFor("unanswered") { $0.contains(" Unanswered  Monochrome?") }
    let styled = try tmux.tmux(["capture-pane", "-t", "main", "-p", "-e"])
    // No SGR colour (30–37, 90–97, 38;…) anywhere; bold (1) and reverse (7) are there.
    let colour = try Regex(#"\x1B\[([0-9;]*;)?(3[0-8]|9[0-7])(;[0-9;]*)?m"#)
    #expect(styled.firstMatch(of: colour) == nil)
    #expect(styled.contains("\u{1B}[1m") || styled.contains(";1m"))
    try tmux.press("C-c")
    try await tmux.waitFor("the shell back") { $0.contains("TTY=RESTORED") }
  }

  @Test func withoutATerminalOrWithABadURLItSaysSoAndExits64() async throws {
    let piped = try ChildProcess(HeadlessProcess.qnaPath, ["--url", "ws://127.0.0.1:9/socket"])
    try piped.stdin.close()
    let errors = await onOwnThread { piped.stderr.readDataToEndOfFile() }
    #expect(await onOwnThread { piped.wait() } == 64)
    #expect(String(decoding: errors, as: UTF8.self).contains("use --headless"))

    let badURL = try ChildProcess(HeadlessProcess.qnaPath, ["--url", "http://example.com/"])
    try badURL.stdin.close()
    let complaint = await onOwnThread { badURL.stderr.readDataToEndOfFile() }
    #expect(await onOwnThread { badURL.wait() } == 64)
    #expect(String(decoding: complaint, as: UTF8.self).contains("http"))
  }
}
