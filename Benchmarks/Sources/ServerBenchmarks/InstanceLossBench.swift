import Foundation
import TestSupport

/// Three instances on one PostgreSQL with the room spread over them, and one killed with
/// SIGKILL half-way through the answers: its third of the room joins the two others at once
/// (as clients that reconnect through a proxy do, without their jittered wait), while the
/// presenter answers on. Measured from the kill: until every re-homed attendee has its
/// snapshot, and until every attendee, moved or not, has the room's last change.
enum InstanceLossBench {
  struct Outcome {
    var rehomed: Int
    var rejoined: Duration
    var current: Duration
  }

  static func run(on url: String, attendees: Int) async throws -> Outcome {
    let token = ScaleBench.token
    let instances = try (0..<3).map { index in
      try ServerProcess(
        name: "instance \(index)", executable: CommandLine.arguments[0],
        arguments: ["serve", "db=\(url)", "admin=\(token)"])
    }
    defer { for instance in instances { instance.stop() } }
    let ports = instances.map(\.port)
    progress("three instances: \(attendees) attendees joining, then one instance killed")
    let fleet = try LeanFleet(size: attendees, ports: ports, counts: true)
    fleet.start()
    guard await fleet.wait(seconds: 600, until: \.joined) else {
      throw BenchError.timedOut("\(attendees) joins")
    }
    let answers = ScaleBench.answers
    for index in 0..<answers { await fleet.ask(index) }
    guard await fleet.wait(seconds: 120, until: { Set($0.questionIDs).count >= answers }) else {
      throw BenchError.timedOut("the questions reaching everyone")
    }
    let ids = Array(Set(fleet.snapshot[0].questionIDs))
    let presenter = ports[2]
    func answer(_ id: UUID) async throws {
      let response = try await onOwnThread {
        try httpRequest(
          "POST", port: presenter, path: "/api/questions/\(id)/answer",
          headers: ["Authorization": "Bearer \(token)"])
      }
      guard response.status == 200 else { throw BenchError.timedOut("answer: \(response)") }
    }
    for id in ids.prefix(answers / 2) { try await answer(id) }

    // The LeanFleet gives member i the port i % 3: the killed instance's are i % 3 == 1.
    let killed = Set(stride(from: 1, to: attendees, by: 3))
    let killedAt = ContinuousClock.now
    kill(instances[1].pid, SIGKILL)
    let rehomed = try LeanFleet(size: killed.count, ports: [ports[0], ports[2]], counts: true)
    rehomed.start()
    fleet.resetCounters()
    for id in ids.dropFirst(answers / 2) { try await answer(id) }
    guard await rehomed.wait(seconds: 600, until: \.joined) else {
      throw BenchError.timedOut("\(killed.count) re-homed joins")
    }
    let rejoined = ContinuousClock.now - killedAt
    // Current: every live attendee at the newest sequence number any of them has, twice in
    // a row 100 ms apart (nothing changes after the last answer).
    var agreed = 0
    var current = Duration.zero
    while agreed < 2, ContinuousClock.now - killedAt < .seconds(600) {
      let seqs =
        fleet.snapshot.enumerated().filter { !killed.contains($0.offset) }.map(\.element.reachedSeq)
        + rehomed.snapshot.map(\.reachedSeq)
      if let newest = seqs.max(), seqs.allSatisfy({ $0 == newest }) {
        if agreed == 0 { current = ContinuousClock.now - killedAt }
        agreed += 1
      } else {
        agreed = 0
      }
      try await Task.sleep(for: .milliseconds(100))
    }
    await fleet.stop()
    await rehomed.stop()
    return Outcome(rehomed: killed.count, rejoined: rejoined, current: current)
  }
}
