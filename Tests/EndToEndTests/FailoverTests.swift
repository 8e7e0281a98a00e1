import Foundation
import Synchronization
import TestSupport
import Testing

/// docs/scale-out.md's failover, done: a primary and a synchronous standby, three instances
/// behind nginx on a two-host `--db` with `target_session_attrs=read-write`, attendees asking
/// and a room voting; the primary killed with SIGKILL and the standby promoted. Nothing that
/// was acknowledged is lost, nothing counts twice, and every attendee's room comes to equal
/// the database's.
@Suite("Failover: the primary killed, the synchronous standby promoted", .serialized)
struct FailoverTests {
  static let token = "failover-admin-token"
  static let bearer = ["Authorization": "Bearer \(token)"]

  @Test func aPromotedStandbyTakesOverWithNothingAcknowledgedLost() async throws {
    let primary = try PostgresProcess()
    _ = try primary.database("qna")
    let standby = try PostgresProcess(standbyOf: primary)
    try primary.requireSynchronousStandby()
    let url =
      "postgres://postgres@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/qna"
      + "?sslmode=disable&target_session_attrs=read-write"
    let cluster = try await InstanceCluster(
      url: url, databases: [primary, standby],
      arguments: ["--admin-token", Self.token, "--trusted-proxy", "127.0.0.1"])
    defer { cluster.stop() }

    let perAsker = 20
    let askers = try (0..<3).map { _ in
      try HeadlessProcess([
        "--url", cluster.socket, "--room", "--exit-after-send", "--timeout", "120s",
      ])
    }
    let voters = try (0..<6).map { _ in
      try HeadlessProcess([
        "--url", cluster.socket, "--room", "--exit-after-send", "--timeout", "120s",
      ])
    }
    let everyone = askers + voters
    let content: @Sendable (Int, Int) -> String = { "asker \($0) question \($1)" }
    let asking = askers.enumerated().map { number, asker in
      Task {
        for index in 0..<perAsker {
          asker.write(content(number, index))
          try? await Task.sleep(for: .milliseconds(250))
        }
      }
    }
    // The vote storm: every voter, and every other asker, votes for every question as soon as
    // it is in its room.
    let voting = Task {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for (number, client) in everyone.enumerated() {
          group.addTask {
            for (owner, asker) in askers.enumerated() where owner != number {
              for index in 0..<perAsker {
                let created = try await asker.waitFor(
                  "created", seconds: 90, where: { $0["content"] == content(owner, index) })
                let id = try #require(created["id"])
                _ = try await client.waitFor("room", seconds: 90, where: { $0["id"] == id })
                client.write("/vote \(id)")
              }
            }
          }
        }
        try await group.waitForAll()
      }
    }
    try await Task.sleep(for: .seconds(2))
    let killedAt = ContinuousClock.now
    primary.kill9()
    try await Task.sleep(for: .seconds(2))
    try await onOwnThread { try standby.promote() }
    let promotedAt = ContinuousClock.now

    // Until every room equals the database, complete: each question once, with its votes.
    let votesEach = everyone.count - 1
    var current: Duration?
    var stored: [[String: Any]] = []
    while ContinuousClock.now - promotedAt < .seconds(60) {
      try await Task.sleep(for: .milliseconds(200))
      guard let listed = try? await cluster.questions(headers: Self.bearer) else { continue }
      stored = listed
      let truth = Dictionary(
        listed.compactMap { q in (q["id"] as? String).map { ($0, q["votes"] as? Int ?? -1) } },
        uniquingKeysWith: { first, _ in first })
      guard truth.count == 3 * perAsker, truth.values.allSatisfy({ $0 == votesEach }) else {
        continue
      }
      if everyone.allSatisfy({ Self.room(of: $0) == truth }) {
        current = ContinuousClock.now - promotedAt
        break
      }
    }
    try await voting.value
    for task in asking { await task.value }
    let inputEnded = ContinuousClock.now
    for client in everyone { try client.closeInput() }
    var statuses: [Int32] = []
    for client in everyone { statuses.append(await client.exitStatus()) }
    print(
      "failover: clients done \(ContinuousClock.now - inputEnded) after their input ended, "
        + "\(inputEnded - promotedAt) after the promotion")

    let contents = stored.compactMap { $0["content"] as? String }
    let expected = Set((0..<3).flatMap { a in (0..<perAsker).map { content(a, $0) } })
    let acknowledged = Set(
      askers.flatMap { $0.events.filter { $0.name == "created" }.compactMap { $0["id"] } })
    let ids = Set(stored.compactMap { $0["id"] as? String })
    print(
      "failover: primary killed, standby promoted \(promotedAt - killedAt) later; every room "
        + "equal to the database \(current.map { "\($0)" } ?? "never") after the promotion; "
        + "\(stored.count) questions, \(acknowledged.count) acknowledged; slowest answer to "
        + "a question \(ClusterLoad(clients: everyone, perClient: 0, voted: 0).slowestAnswer())")
    for (index, instance) in cluster.instances.enumerated() {
      let lines = instance.log.split(separator: "\n").filter { $0.contains("warning") }
      print(
        "instance \(index): \(lines.count) warnings\n" + lines.suffix(6).joined(separator: "\n"))
    }
    #expect(statuses.allSatisfy { $0 == 0 }, "\(everyone.map(\.stderr))")
    #expect(Set(contents) == expected && contents.count == expected.count, "each exactly once")
    #expect(acknowledged.isSubset(of: ids), "nothing acknowledged is lost")
    #expect(stored.allSatisfy { $0["votes"] as? Int == votesEach }, "every vote once")
    let caughtUp = try #require(current, "every room came to equal the database")
    // A bound that catches a room stuck behind the database, not a speed test (runs on two
    // cores took 6.5 to 16.2 s, the outage's votes going through each attendee's vote rate;
    // a 10 s bound failed CI): docs/scale-out.md reports it.
    #expect(caughtUp < .seconds(30))
  }

  /// A client's room as its `room` events left it: question id → votes.
  static func room(of client: HeadlessProcess) -> [String: Int] {
    var room: [String: Int] = [:]
    for event in client.events where event.name == "room" {
      guard let id = event["id"] else { continue }
      if event.fields["removed"] as? Bool == true {
        room[id] = nil
      } else {
        room[id] = event.fields["votes"] as? Int ?? -1
      }
    }
    return room
  }
}
