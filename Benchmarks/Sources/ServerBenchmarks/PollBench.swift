import Foundation
import QnA

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A keynote's poll (#49): `attendees` answering one poll within 10 s, its results shown to
/// everyone, on one core (the server pinned to core 0, the attendees to core 1, an SQLite
/// file), for a choice poll and for a word cloud (three words each, most of them the
/// attendee's own: a hundred thousand distinct words at 10,000 attendees); beside the room's
/// vote storm of the same size (one vote each), in the same run. Measured: server CPU per
/// answer, answer → results current on every attendee's screen (p50, p99), bytes per attendee
/// on the wire.
enum PollBench {
  static func report(executable: String, attendees: Int) async throws {
    raiseDescriptorLimit(to: attendees * 2 + 1024)
    StormBench.pin(toCores: [1])
    defer { StormBench.pin(toCores: [0, 1]) }
    emit(
      "\n## A poll on one core: \(attendees) attendees answering within 10 s, results shown "
        + "to everyone, the server pinned to one core, an SQLite file\n")
    emit(
      "| what the room does | counted | server CPU, s | CPU per answer, µs | answer→every screen p50, ms | p99, ms | bytes per attendee, wire | reached the last | reconnects |"
    )
    emit("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    // Each kind twice: ours, and the baseline whose broadcasts the window alone spaces
    // (`fixed-window`), whatever writing them to every socket costs.
    var ratios: [String] = []
    for kind in [Kind.votes, .choice, .words] {
      var outcomes: [RoomBench.Outcome] = []
      for fixed in [false, true] {
        let name = kind.name + (fixed ? " (baseline: the window alone)" : "")
        let outcome = try await measure(
          kind, name: name, executable: executable, attendees: attendees, fixedWindow: fixed)
        outcomes.append(outcome)
        emit(
          "| \(name) | \(outcome.counted) | \(String(format: "%.2f", outcome.cpu / .seconds(1))) "
            + "| \(String(format: "%.0f", StormBench.perVote(outcome))) "
            + "| \(milliseconds(outcome.p50)) | \(milliseconds(outcome.p99)) "
            + "| \(String(format: "%.0f", outcome.wireBytesPerAttendee)) "
            + "| \(outcome.reached) of \(outcome.attendees) | \(outcome.reconnects) |")
      }
      let cpu = StormBench.perVote(outcomes[0]) / StormBench.perVote(outcomes[1])
      ratios.append(
        "\(kind.name): CPU per answer " + String(format: "%.2f", cpu) + ", p99 "
          + String(format: "%.2f", outcomes[0].p99 / outcomes[1].p99))
    }
    emit("\nOurs ÷ baseline: " + ratios.joined(separator: "; "))
  }

  /// One run: a server of its own on core 0, an SQLite file of its own.
  static func measure(
    _ kind: Kind, name: String, executable: String, attendees: Int, fixedWindow: Bool
  ) async throws -> RoomBench.Outcome {
    try await StormBench.onOneCore(
      name, executable: executable, options: fixedWindow ? ["fixed-window"] : []
    ) { server in try await run(kind, server, attendees: attendees) }
  }

  enum Kind {
    case votes, choice, words

    var name: String {
      switch self {
      case .votes: "the vote storm: one vote each"
      case .choice: "a single choice poll, 4 options"
      case .words: "a word cloud, 3 words each"
      }
    }
  }

  static func run(_ kind: Kind, _ server: ServerProcess, attendees: Int) async throws
    -> RoomBench.Outcome
  {
    guard kind != .votes else {
      return try await RoomBench.run(
        server, attendees: attendees, questions: 20, votesEach: 1, spread: .seconds(10),
        counts: true)
    }
    let poll = UUID()
    let spec =
      kind == .choice
      ? #"{"kind":"single","prompt":"Which?","options":["A","B","C","D"]}"#
      : #"{"kind":"words","prompt":"Three words?"}"#
    try await post(server, "/api/polls", body: spec, key: poll)
    try await post(server, "/api/polls/\(poll)/open")
    try await post(server, "/api/polls/\(poll)/show")
    progress("\(server.name): \(attendees) attendees joining the room")
    let fleet = try RoomFleet(
      size: attendees, url: "ws://127.0.0.1:\(server.port)/socket", counts: true)
    fleet.start()
    guard await fleet.wait(seconds: 180, until: \.joined) else {
      throw BenchError.timedOut("\(server.name): joins")
    }
    progress("\(server.name): \(attendees) answers over 10 s")
    let common = (0..<200).map { "word\($0)" }
    let answers = (0..<attendees).map { index in
      (
        at: Double.random(in: 0..<1),
        value: kind == .choice
          ? PollValue(choices: [Int.random(in: 0..<4)])
          : PollValue(words: [common.randomElement()!, "own\(index)a", "own\(index)b"])
      )
    }
    return try await RoomBench.measure(server, fleet) { start in
      await withTaskGroup(of: Void.self) { group in
        for (index, answer) in answers.enumerated() {
          group.addTask {
            try? await Task.sleep(until: start + .seconds(10) * answer.at, clock: .continuous)
            await fleet.answer(index, poll: poll, answer.value)
          }
        }
      }
    }
  }

  /// A presenter's request to the bench's server (with the server's token when it has one;
  /// loopback needs none otherwise).
  static func post(_ server: ServerProcess, _ path: String, body: String = "", key: UUID? = nil)
    async throws
  {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!)
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    if let key { request.setValue(key.uuidString, forHTTPHeaderField: "Idempotency-Key") }
    if let token = server.adminToken {
      request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    }
    let (_, response) = try await URLSession.shared.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else {
      throw BenchError.timedOut("\(server.name): \(path) answered \(response)")
    }
  }
}
