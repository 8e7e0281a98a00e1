import Foundation

/// A keynote's vote storm on one core (#52): the server pinned to core 0 (`taskset`), this
/// process's attendees on core 1, the votes stored in an SQLite file as a venue's server
/// keeps them. Ours (the default: votes read on their socket's event loop and written
/// together) beside two baselines in the same run: votes read by each socket's task and the
/// codec, as before (`votesOnLoop` off), and each vote a transaction of its own as well
/// (`StoreOptions.votesOneByOne`). Server CPU per vote counted, and vote → screen p50 and
/// p99 over every attendee.
enum StormBench {
  /// `lean`: the attendees a `LeanFleet` (`ServerBenchmarks storm N lean`). Ours (the first
  /// row), for the floor beside it.
  @discardableResult
  static func report(
    executable: String, attendees: Int, lean: Bool = false
  ) async throws -> RoomBench.Outcome? {
    try await run(
      executable: executable, attendees: attendees, lean: lean,
      rows: [
        ("qna-server: votes read on the loop, written together", []),
        ("baseline: votes read by each socket's task, written together", ["votes-on-tasks"]),
        (
          "baseline: votes read by each socket's task, each a transaction of its own",
          ["votes-on-tasks", "votes-one-by-one"]
        ),
      ])
  }

  /// `ServerBenchmarks storm-ours [N] [lean]`: ours alone, the first row of `report`, for
  /// paired runs of two builds (the machine's speed drifts between runs minutes apart).
  static func ours(executable: String, attendees: Int, lean: Bool = false) async throws {
    _ = try await run(
      executable: executable, attendees: attendees, lean: lean,
      rows: [("qna-server: votes read on the loop, written together", [])])
  }

  /// `ServerBenchmarks storm-windows [N]`: ours alone at several coalescing windows, the
  /// default first: what the room's window trades between the deltas' writes (one per socket
  /// per delta) and the vote → screen latency.
  static func windows(executable: String, attendees: Int, lean: Bool = false) async throws {
    _ = try await run(
      executable: executable, attendees: attendees, lean: lean,
      rows: [100, 150, 200, 300].map { window in
        window == 100
          ? ("qna-server: a 100 ms window (the default)", [])
          : ("qna-server: a \(window) ms window", ["room-window=\(window)"])
      })
  }

  /// The storm against a server of its own for each of `rows` (a name, and the serve mode's
  /// options), one after the other; the first row divided by each other row at the end. The
  /// first row's outcome.
  private static func run(
    executable: String, attendees: Int, lean: Bool, rows: [(name: String, options: [String])]
  ) async throws -> RoomBench.Outcome? {
    raiseDescriptorLimit(to: attendees * 2 + 1024)
    pin(toCores: [1])
    // The rows after this one have both cores again.
    defer { pin(toCores: [0, 1]) }
    let votesEach = 10
    emit(
      "\n## A vote storm on one core: \(attendees) attendees, \(attendees * votesEach) votes "
        + "over 10 s, the server pinned to one core, its votes in an SQLite file"
        + (lean
          ? "; the attendees a lean fleet (one polling thread, the kernel's arrival times)" : "")
        + "\n")
    emit(
      "| server | votes counted | server CPU, s | CPU per vote, µs | of which writing the deltas, µs | vote→screen p50, ms | p99, ms | reached the last vote | reconnects |"
    )
    emit("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    var outcomes: [(name: String, outcome: RoomBench.Outcome)] = []
    for (name, options) in rows {
      let outcome = try await onOneCore(name, executable: executable, options: options) {
        server in
        try await RoomBench.run(
          server, attendees: attendees, questions: 200, votesEach: votesEach,
          spread: .seconds(10), counts: true, lean: lean)
      }
      outcomes.append((name, outcome))
      // Whether the attendees' own core kept up: a saturated fleet's lag is in the latencies.
      progress(
        "\(name): \(String(format: "%.1f", outcome.wall / .seconds(1))) s from the first vote "
          + "to everyone level; the attendees' process used "
          + "\(String(format: "%.1f", outcome.clientCPU / .seconds(1))) s of CPU on core 1")
      emit(
        "| \(name) | \(outcome.counted) | \(String(format: "%.2f", outcome.cpu / .seconds(1))) "
          + "| \(String(format: "%.0f", perVote(outcome))) "
          + "| \(outcome.broadcastCPU.map { String(format: "%.0f", perVote($0, outcome)) } ?? "–") "
          + "| \(milliseconds(outcome.p50)) | \(milliseconds(outcome.p99)) "
          + "| \(outcome.reached) of \(outcome.attendees) | \(outcome.reconnects) |")
    }
    guard let ours = outcomes.first?.outcome else { return nil }
    for (name, other) in outcomes.dropFirst() {
      emit(
        "\nFirst row ÷ \(name): CPU per vote "
          + "\(String(format: "%.2f", perVote(ours) / perVote(other))), "
          + "vote→screen p99 \(String(format: "%.2f", ours.p99 / other.p99))")
    }
    return ours
  }

  /// Microseconds of the server's CPU per vote counted, the broadcasts they caused included.
  /// `body` against a server of its own, pinned to core 0, on an SQLite file of its own
  /// (`options`: the serve mode's, for a baseline), stopped and its file gone after.
  static func onOneCore<T>(
    _ name: String, executable: String, options: [String],
    _ body: (ServerProcess) async throws -> T
  ) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("qna-storm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // A token for `/metrics`, which says what writing the deltas cost.
    let token = UUID().uuidString
    let server = try ServerProcess(
      name: name, executable: "/usr/bin/taskset",
      arguments: [
        "-c", "0", executable, "serve",
        "db=" + directory.appendingPathComponent("room.sqlite").path, "admin=" + token,
      ] + options)
    server.adminToken = token
    defer { server.stop() }
    return try await body(server)
  }

  static func perVote(_ outcome: RoomBench.Outcome) -> Double {
    perVote(outcome.cpu, outcome)
  }

  /// Microseconds of `cpu` per vote counted.
  static func perVote(_ cpu: Duration, _ outcome: RoomBench.Outcome) -> Double {
    cpu / .microseconds(1) / Double(max(1, outcome.counted))
  }

  /// Every thread of this process, and those they start from now on, on `cores` alone
  /// (`taskset -a`: Swift's Glibc does not export `sched_setaffinity`).
  static func pin(toCores cores: [Int]) {
    let taskset = Process()
    taskset.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
    taskset.arguments = [
      "-a", "-p", "-c", cores.map(String.init).joined(separator: ","), "\(getpid())",
    ]
    taskset.standardOutput = FileHandle.nullDevice
    try? taskset.run()
    taskset.waitUntilExit()
  }
}
