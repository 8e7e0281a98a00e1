import Foundation
import Synchronization
import TestSupport
import Testing

/// Three `qna-server` processes on one PostgreSQL database behind Debian's nginx, configured
/// as docs/deploy/nginx.conf with three upstream servers: attendees and the presenter reach
/// whichever instance nginx picks, and nothing is lost when one is killed with `kill -9` or
/// PostgreSQL restarts.
@Suite("Scale-out: three instances behind nginx on PostgreSQL", .serialized)
struct ScaleOutTests {
  static let token = "scale-out-admin-token"
  static let bearer = ["Authorization": "Bearer \(token)"]

  /// A PostgreSQL of its own (the chaos restarts it), three instances (the drops need
  /// `--mock`; everything else is the instances' defaults), and nginx in front.
  struct Cluster {
    let postgres: PostgresProcess
    let instances: [QnAServerProcess]
    let nginx: ProxyProcess

    static func start() async throws -> Cluster {
      let postgres = try PostgresProcess()
      let url = try postgres.database("qna")
      var instances: [QnAServerProcess] = []
      for _ in 0..<3 {
        instances.append(
          try await QnAServerProcess([
            "--port", "0", "--db", url, "--admin-token", token, "--trusted-proxy", "127.0.0.1",
            "--mock",
          ]))
      }
      let example = try String(
        contentsOf: PeerProcess.packageRoot.appendingPathComponent("docs/deploy/nginx.conf"),
        encoding: .utf8)
      let upstreams = instances.map { "server 127.0.0.1:\($0.port);" }.joined(separator: "\n    ")
      let nginx = try ProxyProcess.nginx { port in
        example.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
          .replacingOccurrences(of: "server 127.0.0.1:8080;", with: upstreams)
      }
      return Cluster(postgres: postgres, instances: instances, nginx: nginx)
    }

    var socket: String { "ws://127.0.0.1:\(nginx.port)/socket" }

    func http(_ method: String, _ path: String, body: String = "") async throws -> HTTPResponse {
      let port = nginx.port
      return try await onOwnThread {
        try httpRequest(
          method, port: port, path: path, body: body,
          headers: ScaleOutTests.bearer.merging(["Content-Type": "application/json"]) { $1 })
      }
    }

    /// Every question, as the API lists them through nginx.
    func questions() async throws -> [[String: Any]] {
      let response = try await http("GET", "/api/questions?limit=1000")
      guard response.status == 200 else { throw ScaleOutError.status(response.status) }
      return try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [[String: Any]]
        ?? []
    }

    func stop() {
      for instance in instances { instance.stop() }
    }
  }

  /// Asked through instance 0, voted on through instance 1, answered through instance 2's
  /// API: every attendee, on every instance, sees all of it.
  @Test func askedOnOneVotedOnAnotherAnsweredThroughTheThirdReachesEveryone() async throws {
    let cluster = try await Cluster.start()
    defer { cluster.stop() }
    let urls = cluster.instances.map(\.url)
    let asker = try HeadlessProcess([
      "--url", urls[0], "--room", "--ask", "Across three instances?", "--wait-answered",
      "--no-stdin", "--timeout", "30s",
    ])
    let id = try #require(try await asker.waitFor("created")["id"])
    let voter = try HeadlessProcess(["--url", urls[1], "--room", "--vote", id])
    let watcher = try HeadlessProcess(["--url", urls[2], "--room"])
    for client in [voter, watcher, asker] {
      _ = try await client.waitFor("room", seconds: 10) { $0["id"] == id }
    }
    for client in [asker, watcher] {
      _ = try await client.waitFor("room", seconds: 10) { event in
        event["id"] == id && (event.fields["votes"] as? Int) == 1
      }
    }
    let port = cluster.instances[2].port
    let answered = try await onOwnThread {
      try httpRequest(
        "POST", port: port, path: "/api/questions/\(id)/answer",
        body: #"{"text":"Yes: PostgreSQL tells every instance."}"#,
        headers: ScaleOutTests.bearer.merging(["Content-Type": "application/json"]) { $1 })
    }
    #expect(answered.status == 200, "\(answered.body)")
    #expect(await asker.exitStatus() == 0, "\(asker.stderr)")
    #expect(asker.events.contains { $0.name == "answered" && $0["id"] == id })
    for client in [voter, watcher] {
      let seen = try await client.waitFor("room", seconds: 10) { event in
        event["id"] == id && (event.fields["answered"] as? Bool) == true
      }
      #expect(seen["answer"] == "Yes: PostgreSQL tells every instance.")
      client.interrupt()
      _ = await client.exitStatus()
    }
  }

  @Test func anInstanceKilledAndPostgreSQLRestartedLoseNothingAndCountNothingTwice()
    async throws
  {
    let cluster = try await Cluster.start()
    defer { cluster.stop() }
    let perClient = 100
    let voted = 30
    // The clients' defaults, but reconnecting fast: the chaos drops sockets every second.
    let clients = try (0..<3).map { _ in
      try HeadlessProcess([
        "--url", cluster.socket, "--room", "--wait-answered", "--timeout", "240s",
        "--max-backoff", "1s", "--ping-interval", "1s", "--ping-timeout", "2s",
      ])
    }
    let content: @Sendable (Int, Int) -> String = { "client \($0) question \($1)" }
    let asking = clients.enumerated().map { number, client in
      Task {
        for index in 0..<perClient {
          client.write(content(number, index))
          try? await Task.sleep(for: .milliseconds(40))
        }
      }
    }
    // Each client votes for the first 30 questions of each of the two others, once they are
    // in its room: those end with two votes each.
    let voting = Task {
      for (number, client) in clients.enumerated() {
        for other in clients.indices where other != number {
          for index in 0..<voted {
            let created = try await clients[other].waitFor(
              "created", seconds: 120, where: { $0["content"] == content(other, index) })
            let id = try #require(created["id"])
            // As a person would: once the question is in the voter's own room.
            _ = try await client.waitFor("room", seconds: 120, where: { $0["id"] == id })
            client.write("/vote \(id)")
          }
        }
      }
      // Input ends once every question and every vote is written.
      for task in asking { await task.value }
      for client in clients { try client.closeInput() }
    }
    // Chaos: sockets dropped on a random live instance every 0.2–1 s; instance 1 killed with
    // kill -9 after 2 s; PostgreSQL stopped (fast shutdown) and started again after 5 s.
    let killed = 1
    let chaos = Task {
      var drops = 0
      let started = ContinuousClock.now
      var didKill = false
      var didRestart = false
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(Int.random(in: 200...1000)))
        let live = cluster.instances.indices.filter { !(didKill && $0 == killed) }
        let target = cluster.instances[live.randomElement()!]
        if (try? await target.http("POST", "/control/drop", headers: ScaleOutTests.bearer))?
          .status == 200
        {
          drops += 1
        }
        if !didKill, ContinuousClock.now - started > .seconds(2) {
          await cluster.instances[killed].kill9()
          didKill = true
        }
        if !didRestart, ContinuousClock.now - started > .seconds(5) {
          await onOwnThread { cluster.postgres.stop() }
          try? await Task.sleep(for: .seconds(1))
          try await onOwnThread { try cluster.postgres.start() }
          didRestart = true
        }
      }
      return (drops, didKill, didRestart)
    }
    // The presenter, through nginx: answers every question, the voted ones once their two
    // votes are in (an answered question takes no votes).
    let presenter = Task {
      var answers = 0
      let started = ContinuousClock.now
      var reported = started
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(300))
        guard let questions = try? await cluster.questions() else { continue }
        if ContinuousClock.now - reported > .seconds(5) {
          reported = ContinuousClock.now
          let votes = questions.compactMap { $0["votes"] as? Int }.reduce(0, +)
          let answered = questions.filter { $0["answered"] as? Bool == true }.count
          print(
            "scale-out chaos, \(ContinuousClock.now - started): \(questions.count) questions, "
              + "\(votes) votes, \(answered) answered")
        }
        for question in questions where question["answered"] as? Bool == false {
          guard let id = question["id"] as? String, let text = question["content"] as? String,
            let index = Int(text.split(separator: " ").last ?? "")
          else { continue }
          if index < voted, (question["votes"] as? Int) != 2 { continue }
          let asked = ContinuousClock.now
          let status = (try? await cluster.http("POST", "/api/questions/\(id)/answer"))?.status
          if ContinuousClock.now - asked > .seconds(2) {
            print(
              "scale-out chaos: answering \(id) took \(ContinuousClock.now - asked): \(status ?? 0)"
            )
          }
          if status == 200 { answers += 1 }
        }
      }
      return answers
    }
    var statuses: [Int32] = []
    for client in clients { statuses.append(await client.exitStatus()) }
    chaos.cancel()
    presenter.cancel()
    try await voting.value
    let (drops, didKill, didRestart) = try await chaos.value
    let answerCalls = await presenter.value

    let stored = try await cluster.questions()
    let contents = stored.compactMap { $0["content"] as? String }
    let expected = Set((0..<3).flatMap { c in (0..<perClient).map { content(c, $0) } })
    let votes = Dictionary(
      stored.compactMap { q in (q["content"] as? String).map { ($0, q["votes"] as? Int ?? -1) } },
      uniquingKeysWith: { first, _ in first })
    let answeredPerClient = clients.map { client in
      Set(client.events.filter { $0.name == "answered" }.compactMap { $0["id"] }).count
    }
    let reconnects = clients.map { $0.events.filter { $0.name == "handshake" }.count - 1 }
    print(
      "scale-out chaos: \(drops) drops, instance killed \(didKill), PostgreSQL restarted "
        + "\(didRestart); database holds \(stored.count) questions (\(Set(contents).count) "
        + "distinct), \(votes.values.reduce(0, +)) votes; \(answerCalls) answer calls; "
        + "answered per client \(answeredPerClient); reconnects \(reconnects)")
    for (index, instance) in cluster.instances.enumerated() {
      let lines = instance.log.split(separator: "\n").filter {
        $0.contains("error") || $0.contains("warning")
      }
      print(
        "instance \(index): \(lines.count) errors and warnings\n"
          + lines.suffix(15).joined(separator: "\n"))
    }
    // A client that failed: its stderr, and the notices it was told (a refusal's words).
    let told = clients.map { client in
      client.events.filter { $0.name == "notice" }.compactMap { $0["text"] }
    }
    #expect(statuses == [0, 0, 0], "\(clients.map(\.stderr)); notices: \(told)")
    #expect(didKill && didRestart, "the chaos happened")
    #expect(stored.count == 3 * perClient)
    #expect(Set(contents) == expected && contents.count == expected.count, "each exactly once")
    for client in 0..<3 {
      for index in 0..<perClient {
        #expect(
          votes[content(client, index)] == (index < voted ? 2 : 0), "\(content(client, index))")
      }
    }
    #expect(stored.allSatisfy { $0["answered"] as? Bool == true })
    #expect(answeredPerClient == [perClient, perClient, perClient])
    #expect(reconnects.allSatisfy { $0 >= 1 })
  }
}

enum ScaleOutError: Error {
  case status(Int)
}
