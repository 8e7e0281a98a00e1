import Foundation
import TestSupport

/// Presenter-action-to-attendee-screen in tmux: a presenter highlights one of two questions
/// after the other, 100 times, through the server's API (the console's and the page's
/// actions take the same path on the server); each is timed from the request until the
/// attendee's pane shows the new "Now answering" banner. Beside it, `qna --headless --room`
/// in the same kind of pane, polled the same way, until its `room` line says
/// `"highlighted":true`.
enum ActionLatencyBenchmark {
  static let actions = 100

  static func run() async {
    do {
      let screen = try await measure(headless: false)
      let headless = try await measure(headless: true)
      print(
        "Presenter action to attendee screen over \(actions) highlights, tmux 100×30 (capture-pane polled every ~1 ms)"
      )
      print(pad("client", 44) + pad("p50", 12) + pad("p99", 12) + "p50 ratio")
      print(
        pad("qna terminal UI (room view)", 44)
          + pad(LatencyBenchmark.ms(screen.percentile(0.5)), 12)
          + pad(LatencyBenchmark.ms(screen.percentile(0.99)), 12)
          + String(format: "%.2f×", headless.percentile(0.5) / screen.percentile(0.5)))
      print(
        pad("baseline: qna --headless --room", 44)
          + pad(LatencyBenchmark.ms(headless.percentile(0.5)), 12)
          + pad(LatencyBenchmark.ms(headless.percentile(0.99)), 12) + "1.00×")
    } catch {
      print("action latency benchmark failed: \(error)")
    }
  }

  static func measure(headless: Bool) async throws -> LatencySamples {
    let state = HeadlessProcess.freshDirectory()
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let tmux = try TmuxSession(environment: ["XDG_STATE_HOME": state.path, "LC_ALL": "C.UTF-8"])
    defer { tmux.kill() }
    try tmux.run(
      "'\(HeadlessProcess.qnaPath)' \(headless ? "--headless --room " : "")--url \(server.url)")
    for name in ["First", "Second"] {
      try tmux.type("\(name) question to highlight")
      try tmux.press("Enter")
    }
    // Stored, not only typed (the input line shows a question before it is sent).
    var ids: [String] = []
    let deadline = ContinuousClock.now + .seconds(10)
    while ids.count < 2, ContinuousClock.now < deadline {
      let questions = try await server.questions()
      ids = ["First", "Second"].compactMap { name in
        questions.first { ($0["content"] as? String)?.hasPrefix(name) == true }?["id"] as? String
      }
      if ids.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
    }
    guard ids.count == 2 else { throw TmuxError.timedOut("two stored questions", "") }
    var samples = LatencySamples()
    for index in 0..<actions {
      let id = ids[index % 2]
      let name = index % 2 == 0 ? "First" : "Second"
      try await samples.measure {
        _ = try await server.http("POST", "/api/questions/\(id)/highlight")
      } until: {
        try await tmux.waitFor(
          "highlight \(index) on screen", interval: .milliseconds(1), joinedLines: headless
        ) { screen in
          if headless {
            // The newest line about the question says it is highlighted.
            let last = screen.split(separator: "\n").last {
              $0.contains("\"event\":\"room\"") && $0.contains("\(name) question")
            }
            return last?.contains("\"highlighted\":true") == true
          }
          return screen.contains("Now answering: \(name) question")
            || screen.contains("Now answering your question: \(name) question")
        }
      }
    }
    try tmux.press("C-c")
    return samples
  }
}
