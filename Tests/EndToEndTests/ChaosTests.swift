import Foundation
import TestSupport
import Testing

/// Nothing lost, under faults the tests inject themselves: the built `qna --headless`
/// against the built `qna-server --mock`, both as processes.
@Suite("Nothing lost: chaos", .serialized)
struct ChaosTests {
  static func temporaryDatabase() -> String {
    HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
  }

  /// Reconnect fast: the chaos below drops every connection about twice a second.
  static let quickReconnect = [
    "--max-backoff", "1s", "--ping-interval", "1s", "--ping-timeout", "2s",
  ]

  /// With the server's default limits: the chaos must meet them, as a user's client does.
  /// They set the pace: past the first 20, two questions a second each, so 100 questions
  /// take a client about 40 s (200 took 90 s, for no more cover).
  @Test func threeClientsThreeHundredQuestionsDropsEveryFewHundredMilliseconds() async throws {
    let server = try await QnAServerProcess([
      "--port", "0", "--db", Self.temporaryDatabase(), "--mock", "--auto-answer-after", "0.1s-1s",
    ])
    let perClient = 100
    let clients = try (0..<3).map { _ in
      try HeadlessProcess(
        ["--url", server.url, "--wait-answered", "--timeout", "150s"] + Self.quickReconnect)
    }
    // Each attendee types a question every 40 ms (4 s in all), so that drops fall between,
    // during and after sends; every socket is dropped every 0.2–1 s until they are done.
    let (statuses, drops) = await Self.ask(
      perClient, each: .milliseconds(40), from: clients, droppingEvery: 200...1000, on: server
    ) { "client \($0) question \($1)" }

    let stored: [[String: Any]]
    do {
      stored = try await server.questions()
    } catch {
      // The server is gone: what it said last is the only clue.
      print(
        "chaos: the server is gone (\(server.child.poll().map { "\($0)" } ?? "running")):\n"
          + server.log.split(separator: "\n").suffix(40).joined(separator: "\n"))
      throw error
    }
    let contents = stored.compactMap { $0["content"] as? String }
    let expected = Set(
      (0..<3).flatMap { c in (0..<perClient).map { "client \(c) question \($0)" } })
    let answeredPerClient = clients.map { client in
      Set(client.events.filter { $0.name == "answered" }.compactMap { $0["token"] }).count
    }
    let reconnects = clients.map { client in
      client.events.filter { $0.name == "handshake" }.count - 1
    }
    let retried = clients.map { client in client.events.filter { $0.name == "waiting" }.count }
    print(
      "chaos: \(drops) drops; database holds \(stored.count) questions (\(Set(contents).count) "
        + "distinct); answered per client \(answeredPerClient); reconnects \(reconnects); "
        + "refusals retried \(retried)")
    #expect(!clients.contains { $0.events.contains { $0.name == "failed" } })
    #expect(statuses == [0, 0, 0], "\(clients.map(\.stderr))")
    #expect(stored.count == 3 * perClient)
    #expect(Set(contents) == expected && contents.count == expected.count, "each exactly once")
    #expect(answeredPerClient == [perClient, perClient, perClient])
    #expect(drops >= 3, "the chaos happened")
    server.stop()
  }

  /// Each client types `count` questions, one every `pace`, then closes its input, while the
  /// server drops every socket at random intervals of `drop` milliseconds until every client
  /// has exited: their exit statuses, and how many drops there were.
  static func ask(
    _ count: Int, each pace: Duration, from clients: [HeadlessProcess],
    droppingEvery drop: ClosedRange<Int>, on server: QnAServerProcess,
    _ content: @escaping @Sendable (Int, Int) -> String
  ) async -> (statuses: [Int32], drops: Int) {
    for (number, client) in clients.enumerated() {
      Task {
        for index in 0..<count {
          client.write(content(number, index))
          try? await Task.sleep(for: pace)
        }
        try? client.closeInput()
      }
    }
    let dropper = Task {
      var drops = 0
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(Int.random(in: drop)))
        if (try? await server.http("POST", "/control/drop")) != nil { drops += 1 }
      }
      return drops
    }
    var statuses: [Int32] = []
    for client in clients { statuses.append(await client.exitStatus()) }
    dropper.cancel()
    return (statuses, await dropper.value)
  }

  @Test func aHalfOpenLinkIsDetectedAndNothingIsLost() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:", "--mock"])
    let qna = try HeadlessProcess(
      [
        "--url", server.url, "--ping-interval", "0.5s", "--ping-timeout", "1s", "--max-backoff",
        "1s",
      ])
    _ = try await qna.waitFor("handshake")
    _ = try await server.http("POST", "/control/stall?seconds=10")
    let stalledAt = Date()
    qna.write("asked into a dead link")
    let drop = try await qna.waitFor("disconnected")
    // Interval plus timeout is 1.5 s; allow for scheduling on a loaded machine.
    #expect(
      Date().timeIntervalSince(stalledAt) < 5,
      "detected in \(Date().timeIntervalSince(stalledAt)) s")
    #expect(drop["reason"]?.contains("no pong") == true)
    let created = try await qna.waitFor("created", seconds: 15)
    #expect(created["content"] == "asked into a dead link")
    let stored = try await server.questions()
    #expect(stored.count == 1, "once, though sent twice")
    qna.interrupt()
    _ = await qna.exitStatus()
    server.stop()
  }

  @Test func aKilledServerComesBackAndAnswersGivenMeanwhileArrive() async throws {
    let database = Self.temporaryDatabase()
    let first = try await QnAServerProcess(["--port", "0", "--db", database])
    let port = first.port
    let qna = try HeadlessProcess(
      [
        "--url", first.url, "--ping-interval", "0.5s", "--ping-timeout", "1s", "--max-backoff",
        "2s",
        "--ask", "survive a kill -9?", "--wait-answered", "--timeout", "40s",
      ])
    let created = try await qna.waitFor("created")
    let id = try #require(created["id"])
    await first.kill9()
    _ = try await qna.waitFor("disconnected")
    // Back on the same port and database; answered before the client is back.
    let second = try await QnAServerProcess(["--port", "\(port)", "--db", database])
    #expect(try await second.http("POST", "/api/questions/\(id)/answer").status == 200)
    let answered = try await qna.waitFor("answered", seconds: 20)
    #expect(answered["id"] == id)
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    #expect(try await second.questions().count == 1)
    second.stop()
  }

  @Test func questionsTypedOfflineSurviveQuittingAndGoOutOnceOnTheNextStart() async throws {
    let state = HeadlessProcess.freshDirectory()
    // A port nobody listens on, then a server on it.
    let port = try await QnAServerProcess.unusedPort()
    let url = "ws://127.0.0.1:\(port)/socket"
    let offline = try HeadlessProcess(
      ["--url", url, "--max-backoff", "1s"], stdin: nil, stateDirectory: state)
    offline.write("typed on the train")
    offline.write("and another")
    _ = try await offline.waitFor("queued", occurrence: 1)
    offline.interrupt()
    #expect(await offline.exitStatus() == 0)

    let server = try await QnAServerProcess(["--port", "\(port)", "--db", ":memory:"])
    let online = try HeadlessProcess(
      ["--url", url, "--exit-after-send", "--no-stdin", "--timeout", "20s"], stateDirectory: state)
    #expect(await online.exitStatus() == 0, "\(online.stderr)")
    #expect(
      online.events.filter { $0.name == "sent" }.compactMap { $0["content"] } == [
        "typed on the train", "and another",
      ])
    // A third run has nothing left to send: they left the file once confirmed.
    let third = try HeadlessProcess(
      ["--url", url, "--exit-after-send", "--no-stdin", "--timeout", "20s"], stateDirectory: state)
    #expect(await third.exitStatus() == 0)
    #expect(!third.events.contains { $0.name == "sent" })
    let stored = try await server.questions().compactMap { $0["content"] as? String }
    #expect(stored.sorted() == ["and another", "typed on the train"])
    server.stop()
  }

  @Test func twoClientsOnOneServerDoNotShareTheirPendingQuestions() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    let state = HeadlessProcess.freshDirectory()
    let first = try HeadlessProcess(["--url", server.url], stateDirectory: state)
    _ = try await first.waitFor("handshake")
    let second = try HeadlessProcess(["--url", server.url], stateDirectory: state)
    let notice = try await second.waitFor("notice")
    #expect(notice["text"]?.hasPrefix("Another qna is connected to this server") == true)
    first.interrupt()
    second.interrupt()
    #expect(await first.exitStatus() == 0)
    #expect(await second.exitStatus() == 0)
    server.stop()
  }

  @Test func anOldBackEndDegradesAsPromisedWithoutCrashing() async throws {
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--mock", "--no-extensions",
    ])
    let qna = try HeadlessProcess([
      "--url", server.url, "--max-backoff", "1s", "--ping-interval", "0",
    ])
    _ = try await qna.waitFor("handshake")
    qna.write("asked before the drop")
    let created = try await qna.waitFor("created")
    _ = try await server.http("POST", "/control/drop")
    _ = try await qna.waitFor("handshake", occurrence: 1)
    // Answered now: the old back end sends it to the old connection id, which is gone.
    let id = try #require(created["id"])
    _ = try await server.http("POST", "/\(id)/answer")
    let notice = try await qna.waitFor("notice") { $0["text"]?.contains("may not arrive") == true }
    #expect(notice["level"] == "info")
    try await Task.sleep(for: .milliseconds(500))
    #expect(!qna.events.contains { $0.name == "answered" }, "the degraded behaviour promised")
    qna.write("still working")
    _ = try await qna.waitFor("created", occurrence: 1)
    qna.interrupt()
    #expect(await qna.exitStatus() == 0)
    #expect(qna.events.filter { $0["text"]?.contains("may not arrive") == true }.count == 1)
    server.stop()
  }
}
