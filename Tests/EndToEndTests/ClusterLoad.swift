import Foundation
import TestSupport
import Testing

/// The load the operations suites put on several instances: `qna --headless` clients asking
/// `perClient` questions each at a steady pace, each voting for the first `voted` questions of
/// the next client once they are in its room; and what the database must hold afterwards.
struct ClusterLoad: Sendable {
  let clients: [HeadlessProcess]
  let perClient: Int
  let voted: Int

  static func content(_ client: Int, _ index: Int) -> String {
    "client \(client) question \(index)"
  }

  /// Asks and votes; the task ends when every question and vote is written and each client's
  /// input is closed. `seconds`: how long a vote waits for its question.
  func start(every pace: Duration, waiting seconds: Double) -> Task<Void, any Error> {
    let (clients, perClient, voted) = (clients, perClient, voted)
    let asking = clients.enumerated().map { number, client in
      Task {
        for index in 0..<perClient {
          client.write(Self.content(number, index))
          try? await Task.sleep(for: pace)
        }
      }
    }
    return Task {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (number, client) in clients.enumerated() {
          let other = (number + 1) % clients.count
          group.addTask {
            for index in 0..<voted {
              let created = try await clients[other].waitFor(
                "created", seconds: seconds,
                where: { $0["content"] == Self.content(other, index) })
              let id = try #require(created["id"])
              _ = try await client.waitFor("room", seconds: seconds, where: { $0["id"] == id })
              client.write("/vote \(id)")
            }
          }
        }
        try await group.waitForAll()
      }
      for task in asking { await task.value }
      for client in clients { try client.closeInput() }
    }
  }

  /// The questions the presenter may answer now, of an API listing: unanswered, and the
  /// voted ones once their vote is in (an answered question takes no votes).
  func answerable(_ listing: HTTPResponse) -> [String] {
    guard listing.status == 200,
      let questions = try? JSONSerialization.jsonObject(with: Data(listing.body.utf8))
        as? [[String: Any]]
    else { return [] }
    return questions.compactMap { question in
      guard question["answered"] as? Bool == false, let id = question["id"] as? String,
        let text = question["content"] as? String,
        let index = Int(text.split(separator: " ").last ?? "")
      else { return nil }
      return index < voted && (question["votes"] as? Int) != 1 ? nil : id
    }
  }

  /// Every question stored once, every vote counted once, every question answered.
  func expectStored(_ stored: [[String: Any]]) {
    let contents = stored.compactMap { $0["content"] as? String }
    let expected = Set(
      clients.indices.flatMap { c in (0..<perClient).map { Self.content(c, $0) } })
    let votes = Dictionary(
      stored.compactMap { q in (q["content"] as? String).map { ($0, q["votes"] as? Int ?? -1) } },
      uniquingKeysWith: { first, _ in first })
    #expect(Set(contents) == expected && contents.count == expected.count, "each exactly once")
    for client in clients.indices {
      for index in 0..<perClient {
        let content = Self.content(client, index)
        #expect(votes[content] == (index < voted ? 1 : 0), "\(content)")
      }
    }
    #expect(stored.allSatisfy { $0["answered"] as? Bool == true })
  }

  /// For each client, its questions created but never heard answered, with every event about
  /// them and the stored row: what a failure of `--wait-answered` needs explained.
  func unanswered(_ stored: [[String: Any]]) -> [String] {
    let rows = Dictionary(
      stored.compactMap { q in (q["id"] as? String).map { ($0, q) } },
      uniquingKeysWith: { first, _ in first })
    var report: [String] = []
    for (number, client) in clients.enumerated() {
      let events = client.events
      let answered = Set(events.filter { $0.name == "answered" }.compactMap { $0["token"] })
      for created in events where created.name == "created" {
        guard let token = created["token"], !answered.contains(token) else { continue }
        let id = created["id"] ?? "?"
        let about = events.enumerated().filter { _, event in
          event["token"] == token || event["id"] == id || event.name == "connected"
            || event.name == "disconnected" || event.name == "handshake"
        }
        report.append(
          "client \(number), \(created["content"] ?? "?") (\(id)); stored: "
            + "\(rows[id].map { "\($0)" } ?? "no row")\n"
            + about.map { "  #\($0.offset) \($0.element.raw)" }.joined(separator: "\n"))
      }
    }
    return report
  }

  /// The slowest answer an attendee's question got on the connection it went out on: from
  /// each `sent` to the `created`, `waiting` or `failed` for its token. A connection that
  /// ended first takes its unanswered questions with it (they go again, and are timed, on
  /// the next one).
  func slowestAnswer() -> Duration {
    var worst = Duration.zero
    for client in clients {
      var sentAt: [String: ContinuousClock.Instant] = [:]
      for event in client.events {
        let token = event.fields["token"] as? String
        switch event.name {
        case "sent": if let token { sentAt[token] = event.at }
        case "created", "waiting", "failed":
          if let token, let sent = sentAt.removeValue(forKey: token) {
            worst = max(worst, event.at - sent)
          }
        case "disconnected": sentAt = [:]
        default: break
        }
      }
    }
    return worst
  }
}
