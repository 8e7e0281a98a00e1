import CFleetIO
import Foundation

/// `ServerBenchmarks storm-floor [N]`: the storm's floor (`IOFloor`) beside nothing else, at
/// the windows `storm-windows` runs ours at, with no deltas at all (a vote's own reads,
/// append and answer), and in cheaper designs than ours at 100 and 200 ms. The same plan as
/// the storm: ten votes per attendee at random times over 10 s, the server on core 0 and the
/// attendees on core 1. The attendees poll their one epoll set every millisecond and never
/// sleep in it, so the server's sends never pay to wake them.
enum IOFloorBench {
  struct Outcome {
    var votes: Int
    var cpu: Duration
    var p50: Duration
    var p99: Duration
    /// How late the votes went out against their plan, at p99 (the fleet's poll).
    var late: Duration
  }

  typealias Design = IOFloor.Design

  /// Each row: its name, its window (0: no deltas) and how its server sends and reads.
  static let rows: [(name: String, window: Int, design: Design)] = [
    ("the votes alone (no deltas; latency to the answer)", 0, Design()),
    ("a delta every 100 ms", 100, Design()),
    ("a delta every 150 ms", 150, Design()),
    ("a delta every 200 ms", 200, Design()),
    ("a delta every 300 ms", 300, Design()),
    ("100 ms, Nagle on (no TCP_NODELAY)", 100, Design(noDelay: false)),
    ("100 ms, each answer in its socket's next delta", 100, Design(answersInDelta: true)),
    ("100 ms, sockets read every 10 ms", 100, Design(readEvery: .milliseconds(10))),
    ("100 ms, votes made durable at the delta", 100, Design(commitAtTick: true)),
    ("100 ms, the last three together", 100, .cheapest),
    ("200 ms, the last three together", 200, .cheapest),
  ]

  /// `ours`: the storm's first row in the same run, divided by the floor at its window.
  static func report(
    executable: String, attendees: Int, beside ours: RoomBench.Outcome? = nil
  ) throws {
    raiseDescriptorLimit(to: attendees * 2 + 1024)
    StormBench.pin(toCores: [1])
    defer { StormBench.pin(toCores: [0, 1]) }
    emit(
      "\n## The storm's floor: \(attendees) attendees, \(attendees * 10) votes over 10 s, "
        + "only the bytes (a \(IOFloor.voteSize)-byte vote appended to a file and made "
        + "durable in batches, a \(IOFloor.answerSize)-byte answer, a \(IOFloor.deltaSize)-byte "
        + "delta to every socket each window), one thread on one core\n")
    emit(
      "| floor | votes answered | server CPU, s | CPU per vote, µs | vote→delta p50, ms | p99, ms | votes late p99, ms |"
    )
    emit("|---|---:|---:|---:|---:|---:|---:|")
    var atDefaultWindow: Outcome?
    for (name, window, design) in rows {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("qna-storm-floor-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let server = try ServerProcess(
        name: name, executable: "/usr/bin/taskset",
        arguments: [
          "-c", "0", executable, "floor-serve", "window=\(window)",
          "log=" + directory.appendingPathComponent("votes.log").path,
        ] + design.arguments)
      defer { server.stop() }
      let outcome = try run(server, attendees: attendees, deltas: window > 0)
      if window == 100, design.arguments.isEmpty { atDefaultWindow = outcome }
      emit(
        "| \(name) | \(outcome.votes) | \(String(format: "%.2f", outcome.cpu / .seconds(1))) "
          + "| \(String(format: "%.0f", perVote(outcome))) "
          + "| \(milliseconds(outcome.p50)) | \(milliseconds(outcome.p99)) "
          + "| \(milliseconds(outcome.late)) |")
    }
    if let ours, let floor = atDefaultWindow {
      emit(
        "\nOurs (the storm's first row, a 100 ms window) ÷ the floor at 100 ms: CPU per vote "
          + String(format: "%.2f", StormBench.perVote(ours) / perVote(floor))
          + ", vote→screen p99 \(String(format: "%.2f", ours.p99 / floor.p99))")
    }
  }

  static func perVote(_ outcome: Outcome) -> Double {
    outcome.cpu / .microseconds(1) / Double(max(1, outcome.votes))
  }

  /// One socket's reading: what is left of the message being read, and its kind.
  private struct Reading {
    var kind: UInt8 = 0
    var left = 0
    /// Votes sent and not yet answered, oldest first; answered and waiting for a delta.
    var sent: [ContinuousClock.Instant] = []
    var answered: [ContinuousClock.Instant] = []
  }

  private static func run(_ server: ServerProcess, attendees: Int, deltas: Bool) throws -> Outcome {
    let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    defer { close(epoll) }
    var sockets: [Int32] = []
    defer { for fd in sockets { close(fd) } }
    for index in 0..<attendees {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard Loopback.connect(fd, port: server.port) == 0 else {
        throw BenchError.timedOut("floor: connecting \(index)")
      }
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      Loopback.watch(fd, tag: UInt64(index), in: epoll)
      sockets.append(fd)
    }
    var random = SystemRandomNumberGenerator()
    let plan = (0..<attendees).flatMap { index in
      (0..<10).map { _ in
        (at: Duration.seconds(Double.random(in: 0..<10, using: &random)), index: index)
      }
    }.sorted { $0.at < $1.at }
    let vote = [UInt8](repeating: UInt8(ascii: "V"), count: IOFloor.voteSize)
    var readings = [Reading](repeating: Reading(), count: attendees)
    var latencies: [Duration] = []
    latencies.reserveCapacity(plan.count)
    var events = [epoll_event](repeating: epoll_event(), count: 16_384)
    var input = [UInt8](repeating: 0, count: 65_536)
    var late: [Duration] = []
    late.reserveCapacity(plan.count)
    // The server's accepts done before its CPU is counted.
    usleep(300_000)
    let cpuBefore = RoomBench.cpuTime(of: server.pid)
    let start = ContinuousClock.now
    var next = 0
    while latencies.count < plan.count, ContinuousClock.now - start < .seconds(60) {
      while next < plan.count, ContinuousClock.now - start >= plan[next].at {
        let index = plan[next].index
        readings[index].sent.append(.now)
        late.append(ContinuousClock.now - start - plan[next].at)
        _ = vote.withUnsafeBytes { write(sockets[index], $0.baseAddress, $0.count) }
        next += 1
      }
      let ready = epoll_wait(epoll, &events, Int32(events.count), 0)
      let now = ContinuousClock.now
      for event in events[0..<max(0, Int(ready))] {
        let index = Int(event.data.u64)
        while case let count = read(sockets[index], &input, input.count), count > 0 {
          var offset = 0
          while offset < count {
            if readings[index].left == 0 {
              readings[index].kind = input[offset]
              readings[index].left =
                input[offset] == UInt8(ascii: "A") ? IOFloor.answerSize : IOFloor.deltaSize
            }
            let taken = min(readings[index].left, count - offset)
            offset += taken
            readings[index].left -= taken
            guard readings[index].left == 0 else { continue }
            if readings[index].kind == UInt8(ascii: "A"), !readings[index].sent.isEmpty {
              let sent = readings[index].sent.removeFirst()
              if deltas {
                readings[index].answered.append(sent)
              } else {
                latencies.append(now - sent)
              }
            } else if readings[index].kind == UInt8(ascii: "D") {
              latencies.append(contentsOf: readings[index].answered.map { now - $0 })
              readings[index].answered.removeAll()
            }
          }
        }
      }
      usleep(1000)
    }
    let cpu = RoomBench.cpuTime(of: server.pid) - cpuBefore
    let sorted = latencies.sorted()
    guard !sorted.isEmpty else { throw BenchError.timedOut("floor: no vote answered") }
    return Outcome(
      votes: sorted.count, cpu: cpu, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99),
      late: percentile(late.sorted(), 0.99))
  }
}
