import Foundation
import QnA
import QnAStore
import QnAStoreLocation

/// Joins at keynote scale, on the server's defaults, against the server before it shared its
/// work (`legacy-broadcast`) in the same run: a crowd's first joins into a room of 500
/// questions, the same crowd reconnecting at once into a room it must take whole (another
/// epoch: a restarted server, a restored backup), and the server's CPU per join in a room of
/// 10,000 questions.
enum JoinBench {
  struct Crowd {
    /// From the last join sent to the last snapshot page received.
    var afterLastJoin: Duration
    /// From the first connection to the last snapshot page.
    var total: Duration
    var cpu: Duration
    /// The joiners' own CPU (this process), on the same two cores.
    var clientCPU: Duration
    var joined: Int
  }

  static func seeded(_ count: Int, in directory: URL) async throws -> String {
    let path = directory.appendingPathComponent("room-\(count).sqlite").path
    let store = try StoreLocation.open(path)
    try await store.seed(
      (0..<count).map { index in
        StoredQuestion(
          id: UUID(),
          content: "Keynote question \(index): what about the thing on slide \(index % 40)?",
          askedFrom: UUID(),
          createdAt: Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index)),
          attendee: UUID(), votes: index % 37)
      })
    await store.close()
    return path
  }

  static func crowd(
    _ server: ServerProcess, size: Int, counts: Bool, attendees: [UUID]? = nil,
    foreignEpoch: Bool = false
  ) async throws -> (Crowd, [UUID]) {
    let cpuBefore = RoomBench.cpuTime(of: server.pid)
    let clientBefore = RoomBench.cpuTime(of: getpid())
    let started = ContinuousClock.now
    let fleet = try RoomFleet(
      size: size, urls: ["ws://127.0.0.1:\(server.port)/socket"], counts: counts,
      attendees: attendees, since: foreignEpoch ? 1 : nil, epoch: foreignEpoch ? UUID() : nil)
    fleet.start()
    guard await fleet.wait(seconds: 180, until: \.joined) else {
      throw BenchError.timedOut("\(server.name): \(size) joins")
    }
    let members = fleet.snapshot
    let cpu = RoomBench.cpuTime(of: server.pid) - cpuBefore
    let clientCPU = RoomBench.cpuTime(of: getpid()) - clientBefore
    await fleet.stop()
    let lastJoin = members.compactMap(\.joinSentAt).max() ?? started
    let lastPage = members.compactMap(\.snapshotDoneAt).max() ?? started
    return (
      Crowd(
        afterLastJoin: lastPage - lastJoin, total: lastPage - started, cpu: cpu,
        clientCPU: clientCPU,
        joined: members.filter(\.joined).count),
      members.map(\.attendee)
    )
  }

  static func report(executable: String) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("qna-join-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    emit("\n## Joins: 2,000 at once into 500 questions; CPU per join in 10,000 questions\n")
    emit(
      "| server | first joins: last snapshot after last join, ms | all, ms | server CPU, s | joiners' CPU, s | reconnect storm (new epoch): after last join, ms | all, ms | server CPU per join, 10,000 questions, ms |"
    )
    emit("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (name, legacy) in [
      ("qna-server: shared snapshots, compact room", false),
      ("baseline: --legacy-broadcast, today's format", true),
    ] {
      let extra = legacy ? ["legacy-broadcast"] : []
      let small = try await seeded(500, in: directory)
      let server = try ServerProcess(
        name: name, executable: executable, arguments: ["serve", "db=\(small)"] + extra)
      progress("\(name): 2,000 first joins")
      let (first, attendees) = try await crowd(server, size: 2000, counts: !legacy)
      progress("\(name): 2,000 reconnecting into another epoch")
      let (storm, _) = try await crowd(
        server, size: 2000, counts: !legacy, attendees: attendees, foreignEpoch: true)
      server.stop()
      let large = try await seeded(10_000, in: directory)
      let big = try ServerProcess(
        name: name, executable: executable, arguments: ["serve", "db=\(large)"] + extra)
      progress("\(name): 100 joins into 10,000 questions")
      let (hundred, _) = try await crowd(big, size: 100, counts: !legacy)
      big.stop()
      emit(
        "| \(name) | \(milliseconds(first.afterLastJoin)) | \(milliseconds(first.total)) "
          + "| \(String(format: "%.2f", first.cpu / .seconds(1))) "
          + "| \(String(format: "%.2f", first.clientCPU / .seconds(1))) "
          + "| \(milliseconds(storm.afterLastJoin)) | \(milliseconds(storm.total)) "
          + "| \(String(format: "%.1f", hundred.cpu / .milliseconds(1) / 100)) |")
    }
  }
}
