import Foundation
import TestSupport

/// Answer-to-screen in tmux: the terminal UI against `qna --headless` in the same kind of
/// pane, polled the same way, each with a fresh release `qna-server` on a free port.
enum LatencyBenchmark {
  static func run() async {
    do {
      let screen = try await measure(headless: false)
      let headless = try await measure(headless: true)
      print(
        "Answer-to-screen latency over 50 answers, tmux 100×30 (capture-pane polled every ~1 ms)")
      print(pad("client", 44) + pad("p50", 12) + pad("p99", 12) + "p50 ratio")
      print(
        pad("qna terminal UI", 44) + pad(ms(screen.percentile(0.5)), 12)
          + pad(ms(screen.percentile(0.99)), 12)
          + String(format: "%.2f×", headless.percentile(0.5) / screen.percentile(0.5)))
      print(
        pad("baseline: qna --headless (JSON lines)", 44) + pad(ms(headless.percentile(0.5)), 12)
          + pad(ms(headless.percentile(0.99)), 12) + "1.00×")
    } catch {
      print("latency benchmark failed: \(error)")
    }
  }

  static func measure(headless: Bool) async throws -> LatencySamples {
    let state = HeadlessProcess.freshDirectory()
    let server = try await QnAServerProcess([
      "--port", "0", "--mock", "--db", ":memory:", "--rate-limit", "1000",
    ])
    defer { server.stop() }
    let tmux = try TmuxSession(environment: ["XDG_STATE_HOME": state.path, "LC_ALL": "C.UTF-8"])
    defer { tmux.kill() }
    // The attendee's own list (the terminal UI opens on the room): its header counts answers.
    try tmux.run(
      "'\(HeadlessProcess.qnaPath)' \(headless ? "--headless " : "--view mine ")--url \(server.url)"
    )
    if headless {
      try await tmux.waitFor("connected", joinedLines: true) { $0.contains("\"handshake\"") }
      return try await AnswerLatency.measure(
        tmux, server, joinedLines: true,
        // Stored, not only sent: the "queued" and "sent" lines carry the content too, and the
        // answers are looked up on the server next.
        allAsked: { screen in
          screen.split(separator: "\n").contains {
            $0.contains("\"event\":\"created\"")
              && $0.contains("\"content\":\"\(AnswerLatency.prefix)50\"")
          }
        },
        shown: { number, screen in
          screen.split(separator: "\n").contains {
            $0.contains("\"answered\"")
              && $0.contains("\"content\":\"\(AnswerLatency.prefix)\(number)\"")
          }
        })
    }
    try await tmux.waitFor("connected") { $0.contains("● connected") }
    let samples = try await AnswerLatency.measure(
      tmux, server, allAsked: { $0.contains(" 50 asked · 0 answered · 0 pending") },
      shown: { number, screen in screen.contains("· \(number) answered ·") })
    try tmux.press("C-c")
    return samples
  }

  static func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
}
