import Foundation

/// Answer-to-screen latency: a client in a tmux pane asks questions, the presenter answers
/// them one at a time through the server's API, and each answer is timed from the request
/// until the pane shows it (polling capture-pane, so the numbers include that polling).
public enum AnswerLatency {
  public static let prefix = "Latency question "

  /// Types `count` questions into the pane (one line each), waits for `allAsked`, then
  /// answers question `n` (1-based) and waits for `shown(n, screen)`, `count` times.
  public static func measure(
    _ tmux: TmuxSession, _ server: QnAServerProcess, count: Int = 50, joinedLines: Bool = false,
    allAsked: @escaping @Sendable (String) -> Bool,
    shown: @escaping @Sendable (Int, String) -> Bool
  ) async throws -> LatencySamples {
    for number in 1...count {
      try tmux.type(prefix + "\(number)")
      try tmux.press("Enter")
    }
    // On the server's default rate limit (20 at once, then 2 a second) 50 questions take 15 s
    // after the first burst: past the 15 s a wait usually gets, when typing is quick.
    try await tmux.waitFor("all \(count) asked", seconds: 45, joinedLines: joinedLines, allAsked)
    let ids = try await server.questions()
      .compactMap { question -> (Int, String)? in
        guard let content = question["content"] as? String, content.hasPrefix(prefix),
          let number = Int(content.dropFirst(prefix.count)), let id = question["id"] as? String
        else { return nil }
        return (number, id)
      }
      .sorted { $0.0 < $1.0 }
    guard ids.count == count else { throw TmuxError.timedOut("\(count) stored questions", "") }
    var samples = LatencySamples()
    for (number, id) in ids {
      try await samples.measure {
        _ = try await server.http("POST", "/api/questions/\(id)/answer")
      } until: {
        try await tmux.waitFor(
          "answer \(number) on screen", interval: .milliseconds(1), joinedLines: joinedLines
        ) { shown(number, $0) }
      }
    }
    return samples
  }
}
