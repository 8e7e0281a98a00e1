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
    let clients = try cluster.instances.map { instance in
      try HeadlessProcess([
        "--url", instance.url, "--room", "--wait-answered", "--timeout", "400s",
      ])
    }
    // Questions at a steady pace for the whole run, across every fault.
    let load = ClusterLoad(clients: clients, perClient: 60, voted: 20)
    let voting = load.start(every: .milliseconds(1500), waiting: 300)
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
        guard let listing else { continue }
        for id in load.answerable(listing) {
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
    // Each pool back to its floor: the listening connection alone, nobody waiting.
    // (A call cut by the last reset may take until its limit to give its connection back.)
    let settled = ContinuousClock.now
    var pools: [[String: Double]] = []
    var backAfter: [Duration] = []
    for index in 0..<3 {
      var metrics = try await cluster.metrics(index)
      // The listener too: its link, cut by the last fault, may still be coming back.
      while metrics["qna_database_pool_in_use_connections"] != 1
        || metrics["qna_database_listener_up"] != 1,
        ContinuousClock.now - settled < Self.callLimit + .seconds(5)
      {
        try await Task.sleep(for: .milliseconds(200))
        metrics = try await cluster.metrics(index)
      }
      backAfter.append(ContinuousClock.now - settled)
      pools.append(metrics)
    }
    let (worst, worstCall) = slowest.withLock { $0 }
    let slowestAnswer = load.slowestAnswer()
    print(
      "database faults: \(report.joined(separator: "; ")); slowest call \(worst) (\(worstCall)); "
        + "slowest answer to an attendee's question \(slowestAnswer); "
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
    #expect(
      statuses == [0, 0, 0],
      "\(clients.map(\.stderr))\n\(load.unanswered(stored).joined(separator: "\n"))")
    load.expectStored(stored)
    // A request makes a few store calls, each given up at the limit: none hangs past them.
    #expect(worst < Self.callLimit * 3, "\(worstCall)")
    // An attendee's question is answered (stored, or refused for now) within its calls'
    // limits: up to three store calls (its token looked up, the filter's lists, the insert),
    // each given up at the limit.
    #expect(slowestAnswer < Self.callLimit * 4)
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
