import Foundation
import Synchronization
import TestSupport
import Testing

/// Three instances on one PostgreSQL, each through a fault proxy of its own, while attendees
/// ask and vote and the presenter answers: every fault Toxiproxy knows, in turn, on all three
/// database links at once. Every request answers within its time limit, nothing is lost or
/// doubled, and each pool is back to its floor afterwards. The instances run on their
/// defaults (a 10 s call limit, a pool of 20).
@Suite("Database faults: stalls, half-open links, trickles and resets", .serialized)
struct DatabaseFaultTests {
  static let token = "database-fault-admin-token"
  static let bearer = ["Authorization": "Bearer \(token)"]
  /// `--db-call-limit`'s default, which the instances keep.
  static let callLimit: Duration = .seconds(10)

  struct Cluster {
    let postgres: PostgresProcess
    let proxies: [FaultProxy]
    let instances: [QnAServerProcess]

    static func start() async throws -> Cluster {
      let postgres = try PostgresProcess()
      _ = try postgres.database("qna")
      var proxies: [FaultProxy] = []
      var instances: [QnAServerProcess] = []
      for _ in 0..<3 {
        let proxy = try FaultProxy(target: postgres.port)
        proxies.append(proxy)
        let url = "postgres://postgres@127.0.0.1:\(proxy.port)/qna?sslmode=disable"
        instances.append(
          try await QnAServerProcess(["--port", "0", "--db", url, "--admin-token", token]))
      }
      return Cluster(postgres: postgres, proxies: proxies, instances: instances)
    }

    func set(_ fault: FaultProxy.Fault) { for proxy in proxies { proxy.set(fault) } }

    /// One instance's `/metrics`, as name → value (the pool's gauges and counters).
    func metrics(_ index: Int) async throws -> [String: Double] {
      let response = try await instances[index].http("GET", "/metrics", headers: bearer)
      var values: [String: Double] = [:]
      for line in response.body.split(separator: "\n") where !line.hasPrefix("#") {
        let parts = line.split(separator: " ")
        if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
      }
      return values
    }

    func stop() {
      for instance in instances { instance.stop() }
      for proxy in proxies { proxy.stop() }
    }
  }

  @Test func everyFaultOnTheDatabaseLinkLosesNothingAndGivesEveryConnectionBack() async throws {
    let cluster = try await Cluster.start()
    defer { cluster.stop() }
    let perClient = 60
    let voted = 20
    let clients = try cluster.instances.map { instance in
      try HeadlessProcess([
        "--url", instance.url, "--room", "--wait-answered", "--timeout", "400s",
      ])
    }
    let content: @Sendable (Int, Int) -> String = { "client \($0) question \($1)" }
    // Questions at a steady pace for the whole run, across every fault.
    let asking = clients.enumerated().map { number, client in
      Task {
        for index in 0..<perClient {
          client.write(content(number, index))
          try? await Task.sleep(for: .milliseconds(1500))
        }
      }
    }
    // Each client votes for the first 20 questions of the next one, once they are in its room.
    let voting = Task {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (number, client) in clients.enumerated() {
          let other = (number + 1) % clients.count
          group.addTask {
            for index in 0..<voted {
              let created = try await clients[other].waitFor(
                "created", seconds: 300, where: { $0["content"] == content(other, index) })
              let id = try #require(created["id"])
              _ = try await client.waitFor("room", seconds: 300, where: { $0["id"] == id })
              client.write("/vote \(id)")
            }
          }
        }
        try await group.waitForAll()
      }
      for task in asking { await task.value }
      for client in clients { try client.closeInput() }
    }
    // The presenter answers through each instance in turn; every call is timed.
    let slowest = Mutex<(Duration, String)>((.zero, ""))
    let presenter = Task {
      var turn = 0
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(500))
        turn += 1
        let instance = cluster.instances[turn % 3]
        let listed = ContinuousClock.now
        let listing = try? await instance.http(
          "GET", "/api/questions?limit=1000", headers: Self.bearer)
        Self.note(ContinuousClock.now - listed, "list through \(turn % 3)", in: slowest)
        guard let listing, listing.status == 200,
          let questions = try? JSONSerialization.jsonObject(with: Data(listing.body.utf8))
            as? [[String: Any]]
        else { continue }
        for question in questions where question["answered"] as? Bool == false {
          guard let id = question["id"] as? String, let text = question["content"] as? String,
            let index = Int(text.split(separator: " ").last ?? "")
          else { continue }
          if index < voted, (question["votes"] as? Int) != 1 { continue }
          let asked = ContinuousClock.now
          let status =
            (try? await instance.http(
              "POST", "/api/questions/\(id)/answer", headers: Self.bearer))?.status
          Self.note(
            ContinuousClock.now - asked, "answer through \(turn % 3): \(status ?? 0)",
            in: slowest)
        }
      }
    }
    // The faults, each on all three links for longer than a call's limit, then a pause for
    // the clients to catch up.
    var report: [String] = []
    let faults: [FaultProxy.Fault] = [
      .stall, .stallUpstream, .stallDownstream, .halfOpen, .trickle(bytesPerSecond: 300),
    ]
    try await Task.sleep(for: .seconds(5))
    for fault in faults {
      cluster.set(fault)
      try await Task.sleep(for: Self.callLimit + .seconds(2))
      let during = try await cluster.metrics(0)
      cluster.set(.none)
      try await Task.sleep(for: .seconds(6))
      report.append(
        "\(fault): instance 0 had \(Int(during["qna_database_pool_in_use_connections"] ?? -1)) "
          + "in use, \(Int(during["qna_database_pool_waiting_calls"] ?? -1)) waiting")
    }
    // Resets: every connection cut with an RST, five times a second apart.
    for _ in 0..<5 {
      for proxy in cluster.proxies { proxy.resetAll() }
      try await Task.sleep(for: .seconds(1))
    }

    var statuses: [Int32] = []
    for client in clients { statuses.append(await client.exitStatus()) }
    presenter.cancel()
    try await voting.value
    await presenter.value

    let listing = try await cluster.instances[0].http(
      "GET", "/api/questions?limit=1000", headers: Self.bearer)
    let stored =
      try JSONSerialization.jsonObject(with: Data(listing.body.utf8)) as? [[String: Any]] ?? []
    let contents = stored.compactMap { $0["content"] as? String }
    let expected = Set((0..<3).flatMap { c in (0..<perClient).map { content(c, $0) } })
    let votes = Dictionary(
      stored.compactMap { q in (q["content"] as? String).map { ($0, q["votes"] as? Int ?? -1) } },
      uniquingKeysWith: { first, _ in first })
    // Each pool back to its floor: the listening connection alone, nobody waiting.
    // (A call cut by the last reset may take until its limit to give its connection back.)
    let settled = ContinuousClock.now
    var pools: [[String: Double]] = []
    var backAfter: [Duration] = []
    for index in 0..<3 {
      var metrics = try await cluster.metrics(index)
      while metrics["qna_database_pool_in_use_connections"] != 1,
        ContinuousClock.now - settled < Self.callLimit + .seconds(5)
      {
        try await Task.sleep(for: .milliseconds(200))
        metrics = try await cluster.metrics(index)
      }
      backAfter.append(ContinuousClock.now - settled)
      pools.append(metrics)
    }
    let (worst, worstCall) = slowest.withLock { $0 }
    print(
      "database faults: \(report.joined(separator: "; ")); slowest call \(worst) (\(worstCall)); "
        + "pools at their floor \(backAfter) after the clients ended; "
        + "deadline hits \(pools.map { Int($0["qna_database_deadline_hits_total"] ?? -1) }) "
        + "of which still running in the driver "
        + "\(pools.map { Int($0["qna_database_abandoned_running_calls"] ?? -1) }), "
        + "listener reconnects "
        + "\(pools.map { Int($0["qna_database_listener_reconnects_total"] ?? -1) }), "
        + "connections accepted by the proxies \(cluster.proxies.map(\.connections.accepted))")
    for (index, instance) in cluster.instances.enumerated() {
      let lines = instance.log.split(separator: "\n").filter { $0.contains("warning") }
      print(
        "instance \(index): \(lines.count) warnings\n" + lines.suffix(8).joined(separator: "\n"))
    }
    #expect(statuses == [0, 0, 0], "\(clients.map(\.stderr))")
    #expect(Set(contents) == expected && contents.count == expected.count, "each exactly once")
    for client in 0..<3 {
      for index in 0..<perClient {
        #expect(
          votes[content(client, index)] == (index < voted ? 1 : 0), "\(content(client, index))")
      }
    }
    #expect(stored.allSatisfy { $0["answered"] as? Bool == true })
    // A request makes a few store calls, each given up at the limit: none hangs past them.
    #expect(worst < Self.callLimit * 3, "\(worstCall)")
    for (index, pool) in pools.enumerated() {
      #expect(
        pool["qna_database_pool_in_use_connections"] == 1,
        """
        \(pool.filter { $0.key.contains("pool") || $0.key.contains("listener") })
        \(cluster.instances[index].log.split(separator: "\n").suffix(30).joined(separator: "\n"))
        """)
      #expect(pool["qna_database_pool_waiting_calls"] == 0, "\(pool)")
      #expect(pool["qna_database_listener_up"] == 1, "\(pool)")
      #expect((pool["qna_database_deadline_hits_total"] ?? 0) > 0, "the stalls hit the limit")
    }
  }

  static func note(
    _ took: Duration, _ what: String, in slowest: borrowing Mutex<(Duration, String)>
  ) {
    slowest.withLock { if took > $0.0 { $0 = (took, what) } }
  }
}
