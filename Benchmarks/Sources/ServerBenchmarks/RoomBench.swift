import Foundation
import Synchronization

/// A busy room: `attendees` on the project's engine, `questions` asked by the first of them,
/// then every attendee casting `votesEach` votes spread over `spread`. Measured: the
/// server's CPU while the votes come in, the bytes each attendee receives, and how long
/// after a vote is sent each attendee has a delta that includes it.
enum RoomBench {
  struct Outcome {
    var counted: Int
    var cpu: Duration
    /// Of `cpu`, the event loops' writing of the deltas (when the server reports it).
    var broadcastCPU: Duration?
    /// The attendees' own CPU (this process), on the same two cores.
    var clientCPU: Duration
    var wall: Duration
    /// Message bytes each attendee received (before compression), and what the server wrote
    /// to its sockets per attendee (after compression, with the frames' headers).
    var bytesPerAttendee: Double
    var wireBytesPerAttendee: Double
    var deltasPerAttendee: Double
    var p50: Duration
    var p99: Duration
    /// Attendees whose last delta covered the last vote within a minute (a dropped or
    /// starved socket would not).
    var reached: Int
    var attendees: Int
    /// Sockets the server dropped that came back (their client caught up by snapshot).
    var reconnects: Int
  }

  /// `lean`: the attendees are a `LeanFleet` (one thread polling every socket, arrivals the
  /// kernel's receive times), for a crowd that the project's engine per attendee would make
  /// the fleet's own core the bottleneck of; else a `RoomFleet`.
  static func run(
    _ server: ServerProcess, attendees: Int, questions: Int, votesEach: Int, spread: Duration,
    counts: Bool, lean: Bool = false
  ) async throws -> Outcome {
    progress("\(server.name): \(attendees) attendees joining the room")
    let fleet: any StormFleet =
      lean
      ? try LeanFleet(size: attendees, ports: [server.port], counts: counts)
      : try RoomFleet(size: attendees, url: "ws://127.0.0.1:\(server.port)/socket", counts: counts)
    return try await run(
      server, fleet: fleet, questions: questions, votesEach: votesEach, spread: spread)
  }

  private static func run(
    _ server: ServerProcess, fleet: some StormFleet, questions: Int, votesEach: Int,
    spread: Duration
  ) async throws -> Outcome {
    let attendees = fleet.snapshot.count
    fleet.start()
    guard await fleet.wait(seconds: 120, until: \.joined) else {
      throw BenchError.timedOut("\(server.name): joins")
    }
    progress("\(server.name): \(questions) questions")
    for index in 0..<questions { await fleet.ask(index) }
    guard
      await fleet.wait(seconds: 60, until: { Set($0.questionIDs).count >= questions })
    else { throw BenchError.timedOut("\(server.name): questions reaching everyone") }
    let room = Array(Set(fleet.snapshot[questions].questionIDs)).sorted {
      $0.uuidString < $1.uuidString
    }
    let own = fleet.snapshot.map(\.ownQuestion)

    progress("\(server.name): \(attendees * votesEach) votes over \(spread)")
    var random = SystemRandomNumberGenerator()
    let targets = (0..<attendees).map { index in
      (
        offset: Double.random(in: 0..<1, using: &random),
        questions: room.filter { $0 != own[index] }.shuffled(using: &random).prefix(votesEach)
      )
    }
    // How late each vote went out against its plan: a fleet that falls behind sends them in
    // bursts, which a server batches more cheaply than the planned spread.
    let late = Lateness()
    let outcome = try await measure(server, fleet) { start in
      await withTaskGroup(of: Void.self) { group in
        for (index, target) in targets.enumerated() {
          group.addTask {
            for (step, question) in target.questions.enumerated() {
              let due = start + spread * ((Double(step) + target.offset) / Double(votesEach))
              try? await Task.sleep(until: due, clock: .continuous)
              await fleet.vote(index, for: question)
              let sent = ContinuousClock.now
              late.record(sent - due)
            }
          }
        }
      }
    }
    let lateness = late.sorted
    if !lateness.isEmpty {
      progress(
        "\(server.name): votes sent after their planned time by p50 "
          + "\(milliseconds(lateness[lateness.count / 2])) ms, p99 "
          + "\(milliseconds(lateness[min(lateness.count - 1, lateness.count * 99 / 100)])) ms")
    }
    return outcome
  }

  /// What the attendees `send` (votes or poll answers, each answered with the sequence
  /// number that counts it), from `start`, measured: the server's CPU and bytes written
  /// meanwhile, and how long after each was sent each attendee had a delta covering it.
  /// Stops the fleet.
  static func measure(
    _ server: ServerProcess, _ fleet: some StormFleet,
    send: (ContinuousClock.Instant) async -> Void
  ) async throws -> Outcome {
    fleet.resetCounters()
    let broadcastBefore = await server.broadcastWriteCPU()
    let cpuBefore = cpuTime(of: server.pid)
    let clientBefore = cpuTime(of: getpid())
    let writtenBefore = written(by: server.pid)
    let start = ContinuousClock.now
    await send(start)
    // Everything sent answered, and every attendee past the last one's sequence number.
    let deadline = ContinuousClock.now + .seconds(60)
    var cast = fleet.castVotes
    while cast.contains(where: { $0.success == nil }), ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(20))
      cast = fleet.castVotes
    }
    let lastSeq = cast.compactMap(\.seq).max() ?? 0
    let everyone = await fleet.wait(seconds: 60, until: { $0.reachedSeq >= lastSeq })
    if !everyone { progress("\(server.name): the last change did not reach everyone in 60 s") }
    let wall = ContinuousClock.now - start
    let cpu = cpuTime(of: server.pid) - cpuBefore
    let broadcastAfter = await server.broadcastWriteCPU()
    let clientCPU = cpuTime(of: getpid()) - clientBefore
    let wire = written(by: server.pid) - writtenBefore
    let members = fleet.snapshot
    await fleet.stop()

    let counted = cast.filter { $0.success == true }
    var histogram = LatencyHistogram()
    for member in members {
      for vote in counted {
        guard let seq = vote.seq, let at = firstArrival(in: member.deltas, covering: seq)
        else { continue }
        histogram.add(at - vote.sentAt)
      }
    }
    return Outcome(
      counted: counted.count, cpu: cpu,
      broadcastCPU: broadcastBefore.flatMap { before in broadcastAfter.map { $0 - before } },
      clientCPU: clientCPU, wall: wall,
      bytesPerAttendee: Double(members.map(\.bytes).reduce(0, +)) / Double(members.count),
      wireBytesPerAttendee: Double(wire) / Double(members.count),
      deltasPerAttendee: Double(members.map(\.deltas.count).reduce(0, +)) / Double(members.count),
      p50: histogram.percentile(0.5), p99: histogram.percentile(0.99),
      reached: members.filter { $0.reachedSeq >= lastSeq }.count,
      attendees: members.count, reconnects: members.map { max(0, $0.reconnects) }.reduce(0, +))
  }

  /// When the first delta reaching `seq` arrived (deltas arrive in sequence order).
  static func firstArrival(
    in deltas: [(to: Int, at: ContinuousClock.Instant)], covering seq: Int
  ) -> ContinuousClock.Instant? {
    var low = 0
    var high = deltas.count
    while low < high {
      let middle = (low + high) / 2
      if deltas[middle].to >= seq { high = middle } else { low = middle + 1 }
    }
    return low < deltas.count ? deltas[low].at : nil
  }

  /// Bytes the process has written with write(2) and send(2), sockets included (`wchar` in
  /// /proc/PID/io): the server's bytes on the wire, its few log lines aside.
  static func written(by pid: Int32) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else {
      return 0
    }
    let line = text.split(separator: "\n").first { $0.hasPrefix("wchar:") }
    return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
  }

  /// User plus system CPU time the process has used, from /proc.
  static func cpuTime(of pid: Int32) -> Duration {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return .zero }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // Fields 14 and 15 of stat(5), counted from the state (field 3) after the name.
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
      return .zero
    }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    return .seconds(Double(user + system) / ticks)
  }
}

/// Latencies in 0.1 ms buckets up to 60 s: millions of samples in constant memory.
struct LatencyHistogram {
  private var buckets = [Int](repeating: 0, count: 600_000)
  private var count = 0

  mutating func add(_ latency: Duration) {
    let tenths = Int((latency / .microseconds(100)).rounded(.down))
    buckets[min(max(0, tenths), buckets.count - 1)] += 1
    count += 1
  }

  func percentile(_ fraction: Double) -> Duration {
    guard count > 0 else { return .zero }
    let target = Int((Double(count) * fraction).rounded(.up))
    var seen = 0
    for (index, bucket) in buckets.enumerated() {
      seen += bucket
      if seen >= target { return .microseconds(100 * index + 50) }
    }
    return .seconds(60)
  }
}

/// How late each of a fleet's sends went out, from its tasks.
final class Lateness: Sendable {
  private let values = Mutex<[Duration]>([])

  func record(_ late: Duration) { values.withLock { $0.append(late) } }

  var sorted: [Duration] { values.withLock { $0 }.sorted() }
}
