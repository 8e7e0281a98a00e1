import Foundation
import TestSupport

/// Scale-out: `attendees` in one room, spread over three qna-server instances on one
/// PostgreSQL database, beside the same room on one instance on its default SQLite file.
/// Measured: the time until every attendee has joined (handshake and snapshot), the fan-out
/// of answers given through the last instance's API (from the request to each attendee's
/// delta, so across instances for two thirds of them), and the servers' CPU and memory per
/// 1,000 attendees. The attendees are a `LeanFleet` (their arrival times the kernel's), and
/// once more, on one instance, a `WebSocketClient` each, to show what a heavier fleet on
/// the same two cores does to the figures.
enum ScaleBench {
  static let token = "scale-bench-admin-token"

  struct Outcome {
    var connect: Duration
    var p50: Duration
    var p99: Duration
    var reached: Int
    var cpuPerThousand: Duration
    var rssPerThousand: Double
    var rssTotal: Double
  }

  static func report(attendees: Int) async throws {
    // Ten thousand sockets in this process: as many files as the hard limit allows.
    raiseDescriptorLimit(to: .max)
    emit(
      "\n## Scale-out: \(attendees) attendees in one room, answers fanned out to all of them\n")
    emit(
      "| setup | join all, s | answer→attendee p50, ms | p99, ms | reached | server CPU per 1,000 attendees, s | server RSS, MiB (per 1,000) |"
    )
    emit("|---|---:|---:|---:|---:|---:|---:|")
    let directory = try TemporaryDirectory(prefix: "qna-scale-bench")
    let sqlite = try ServerProcess(
      name: "one instance, SQLite", executable: CommandLine.arguments[0],
      arguments: ["serve", "db=\(directory.path("qna.sqlite"))", "admin=\(token)"])
    let single = try await run([sqlite], attendees: attendees)
    sqlite.stop()
    row("one instance, SQLite file (the default)", single)
    // The same room read by a `WebSocketClient` per attendee: what the fleet's own tasks
    // add to the figures on a machine that the server and 10,000 clients share.
    let again = try ServerProcess(
      name: "one instance, SQLite, full clients", executable: CommandLine.arguments[0],
      arguments: ["serve", "db=\(directory.path("engine.sqlite"))", "admin=\(token)"])
    let engine = try await run([again], attendees: attendees, lean: false)
    again.stop()
    row("… attendees on `WebSocketClient`, one each (fleet-bound)", engine)
    // The baseline in the same run: the room before it shared its work.
    let legacy = try ServerProcess(
      name: "one instance, --legacy-broadcast", executable: CommandLine.arguments[0],
      arguments: [
        "serve", "db=\(directory.path("legacy.sqlite"))", "admin=\(token)", "legacy-broadcast",
      ])
    let before = try await run([legacy], attendees: attendees)
    legacy.stop()
    row("baseline: one instance, `--legacy-broadcast`", before)

    let postgres = try PostgresProcess()
    let scaled = try await threeInstances(on: try postgres.database("qna"), attendees: attendees)
    row("three instances, one PostgreSQL", scaled)
    let scaledBefore = try await threeInstances(
      on: try postgres.database("legacy"), attendees: attendees, extra: ["legacy-broadcast"])
    row("baseline: three instances, `--legacy-broadcast`", scaledBefore)
    let lost = try await InstanceLossBench.run(
      on: try postgres.database("loss"), attendees: attendees)
    postgres.stop()
    emit(
      "\nThree instances ÷ one: join all \(String(format: "%.2f", scaled.connect / single.connect))×, "
        + "fan-out p99 \(String(format: "%.2f", scaled.p99 / single.p99))×, "
        + "CPU per 1,000 \(String(format: "%.2f", scaled.cpuPerThousand / single.cpuPerThousand))×")
    emit(
      "Ours ÷ baseline: answer→attendee p99 one instance "
        + "\(String(format: "%.2f", single.p99 / before.p99)), three "
        + "\(String(format: "%.2f", scaled.p99 / scaledBefore.p99)); RSS per 1,000 one instance "
        + "\(String(format: "%.2f", single.rssPerThousand / before.rssPerThousand))")
    emit("\n### One of the three instances killed half-way (SIGKILL)\n")
    emit(
      "| attendees re-homed to the two others | all re-homed joined after the kill, s | every attendee current after the kill, s | three instances joining all, s (above) |"
    )
    emit("|---:|---:|---:|---:|")
    emit(
      "| \(lost.rehomed) | \(String(format: "%.1f", lost.rejoined / .seconds(1))) "
        + "| \(String(format: "%.1f", lost.current / .seconds(1))) "
        + "| \(String(format: "%.1f", scaled.connect / .seconds(1))) |")
  }

  static func threeInstances(on url: String, attendees: Int, extra: [String] = [])
    async throws -> Outcome
  {
    let instances = try (0..<3).map { index in
      try ServerProcess(
        name: "instance \(index)", executable: CommandLine.arguments[0],
        arguments: ["serve", "db=\(url)", "admin=\(token)"] + extra)
    }
    defer { for instance in instances { instance.stop() } }
    return try await run(instances, attendees: attendees)
  }

  static func row(_ name: String, _ outcome: Outcome) {
    emit(
      "| \(name) | \(String(format: "%.1f", outcome.connect / .seconds(1))) "
        + "| \(milliseconds(outcome.p50)) | \(milliseconds(outcome.p99)) "
        + "| \(outcome.reached) | \(String(format: "%.2f", outcome.cpuPerThousand / .seconds(1))) "
        + "| \(String(format: "%.0f (%.1f)", outcome.rssTotal, outcome.rssPerThousand)) |")
  }

  static let answers = 5

  /// `lean`: the attendees are a `LeanFleet` (one epoll thread), else a `RoomFleet`.
  static func run(_ servers: [ServerProcess], attendees: Int, lean: Bool = true) async throws
    -> Outcome
  {
    let urls = servers.map { "ws://127.0.0.1:\($0.port)/socket" }
    let cpuBefore = servers.map { RoomBench.cpuTime(of: $0.pid) }
    let rssBefore = servers.map { residentMiB(of: $0.pid) }
    progress("\(servers.count) server(s): \(attendees) attendees joining")
    let fleet: any AnswerFleet =
      lean
      ? try LeanFleet(size: attendees, ports: servers.map(\.port), counts: true)
      : try RoomFleet(size: attendees, urls: urls, counts: true)
    let start = ContinuousClock.now
    fleet.start()
    guard await fleet.wait(seconds: 600, until: \.joined) else {
      throw BenchError.timedOut("\(attendees) joins")
    }
    let connect = ContinuousClock.now - start
    let rss = zip(servers, rssBefore).map { residentMiB(of: $0.pid) - $1 }.reduce(0, +)
    // Questions from the first attendees, then each answered through the last server's API.
    for index in 0..<answers { await fleet.ask(index) }
    guard await fleet.wait(seconds: 120, until: { Set($0.questionIDs).count >= answers }) else {
      throw BenchError.timedOut("the questions reaching everyone")
    }
    let ids = Array(Set(fleet.snapshot[0].questionIDs))
    let presenter = servers[servers.count - 1].port
    var histogram = LatencyHistogram()
    var reached = attendees
    for id in ids {
      fleet.resetCounters()
      let sent = ContinuousClock.now
      let response = try await onOwnThread {
        try httpRequest(
          "POST", port: presenter, path: "/api/questions/\(id)/answer",
          headers: ["Authorization": "Bearer \(token)"])
      }
      guard response.status == 200 else { throw BenchError.timedOut("answer: \(response)") }
      // Nothing else changes meanwhile: each member's first delta now carries the answer.
      _ = await fleet.wait(seconds: 60, until: { !$0.deltas.isEmpty })
      let members = fleet.snapshot
      reached = min(reached, members.filter { !$0.deltas.isEmpty }.count)
      for member in members {
        if let first = member.deltas.first { histogram.add(first.at - sent) }
      }
    }
    let cpu = zip(servers, cpuBefore).map { RoomBench.cpuTime(of: $0.pid) - $1 }
      .reduce(.zero, +)
    await fleet.stop()
    let thousands = Double(attendees) / 1000
    return Outcome(
      connect: connect, p50: histogram.percentile(0.5), p99: histogram.percentile(0.99),
      reached: reached, cpuPerThousand: cpu / thousands, rssPerThousand: rss / thousands,
      rssTotal: rss)
  }

  /// VmRSS from /proc, in MiB.
  static func residentMiB(of pid: Int32) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kib / 1024
  }
}
