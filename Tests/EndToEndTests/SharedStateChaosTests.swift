import Foundation
import TestSupport
import Testing

/// Two terminals, or a tmux pane beside a script: several `qna` of one user against one
/// server, sharing one state directory (one attendee file), while the server drops every
/// socket at random. Each process must hear every answer to what it asked. Before the fix the
/// three clients' first joins were each issued a credential of their own, the file kept the
/// last, and after a drop the others became someone new, whose earlier questions were no
/// longer theirs to resume: 47, 40 and 31 of 50 answers arrived.
@Suite("Nothing lost: clients sharing a state directory", .serialized)
struct SharedStateChaosTests {
  /// Three runs in a row, since the race is one of timing. The clients run on their defaults
  /// (reconnect, pings, limits): the case a user meets. The server's `--mock` is there only
  /// for the drops and the automatic answers.
  @Test(arguments: 1...3)
  func threeClientsInOneDirectoryHearEveryAnswerThroughDrops(run: Int) async throws {
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ChaosTests.temporaryDatabase(), "--mock",
      "--auto-answer-after", "0.1s-1s",
    ])
    defer { server.stop() }
    let state = HeadlessProcess.freshDirectory()
    // One identity's questions: the server's default rate (20 at once, 20 more per 10 s)
    // holds them back, so 50 each (150) took 65 s of refills at least, and a run took 93 to
    // 120 s of the clients' 120 s. 20 each take 20 s of refills, the rest is the drops.
    let perClient = 20
    let clients = try (0..<3).map { _ in
      try HeadlessProcess(
        ["--url", server.url, "--wait-answered", "--timeout", "120s"], stateDirectory: state)
    }
    // A question every 100 ms each; drops every 0.5–2 s until the clients are done: after
    // each, a client comes back within its default jitter (up to 5 s) and resumes what it
    // asked.
    let (statuses, drops) = await ChaosTests.ask(
      perClient, each: .milliseconds(100), from: clients, droppingEvery: 500...2000, on: server
    ) { "run \(run) client \($0) question \($1)" }
    let stored = try await server.questions().compactMap { $0["content"] as? String }
    let answered = clients.map { client in
      Set(client.events.filter { $0.name == "answered" }.compactMap { $0["token"] }).count
    }
    print(
      "shared state, run \(run): \(drops) drops; stored \(stored.count) (\(Set(stored).count) "
        + "distinct); answered per client \(answered)")
    #expect(statuses == [0, 0, 0], "\(clients.map(\.stderr))")
    #expect(stored.count == 3 * perClient && Set(stored).count == 3 * perClient)
    #expect(answered == [perClient, perClient, perClient])
    #expect(drops >= 3, "the chaos happened")
  }
}
