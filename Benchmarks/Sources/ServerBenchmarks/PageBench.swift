import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The attendee page at a keynote's scale. First, what a phone downloads on its first load:
/// the page of a room of 200 questions, its script and its style sheet, as sent to a client
/// that accepts gzip (as every browser does, and this one) beside the 50 KB target, and
/// uncompressed. Then a room of 1,500 `qna` attendees and 200 questions that 500 more
/// people enter, twice in the same run: as page attendees (each loads the page, the script
/// and the style sheet over HTTP, then joins the room as the page's script does: the same
/// join, with `counts`, which at the protocol level is what a browser sends; Chromium itself
/// is too heavy for 500) and, as the baseline, as `qna` attendees (the join alone).
enum PageBench {
  static let questions = 200
  static let others = 1500
  static let arriving = 500

  struct Outcome {
    var wall: Duration
    var cpu: Duration
    var httpBytes: Int
    var reached: Int
  }

  static func report(executable: String) async throws {
    emit(
      "\n## The attendee page: its first load, and \(arriving) page attendees beside "
        + "\(others) qna attendees\n")
    var outcomes: [Outcome] = []
    var firstLoad: [(String, Fetched)] = []
    for pages in [true, false] {
      let server = try ServerProcess(
        name: "qna-server", executable: executable, arguments: ["serve"])
      defer { server.stop() }
      let base = "http://127.0.0.1:\(server.port)"
      let room = try RoomFleet(
        size: others, url: "ws://127.0.0.1:\(server.port)/socket", counts: true)
      room.start()
      guard await room.wait(seconds: 120, until: \.joined) else {
        throw BenchError.timedOut("the room's joins")
      }
      for index in 0..<questions { await room.ask(index) }
      guard await room.wait(seconds: 60, until: { Set($0.questionIDs).count >= questions }) else {
        throw BenchError.timedOut("the room's questions")
      }
      var paths: [String] = []
      if pages { paths = try await firstLoadPaths(base) }
      for path in paths {
        firstLoad.append((path, try await fetch(base + path)))
      }
      progress("\(arriving) \(pages ? "page" : "qna") attendees arriving")
      let outcome = try await arrive(server: server, base: base, paths: paths)
      outcomes.append(outcome)
      await room.stop()
    }
    let sent = firstLoad.map(\.1.sent).reduce(0, +)
    let plain = firstLoad.map(\.1.plain).reduce(0, +)
    emit("| first load | bytes as sent (gzip accepted) | uncompressed |")
    emit("|---|---:|---:|")
    for (path, bytes) in firstLoad {
      let room = path == "/room/" ? " (a room of \(questions) questions)" : ""
      emit("| `\(path)`\(room) | \(bytes.sent) | \(bytes.plain) |")
    }
    emit("| total | \(sent) (target under 50,000) | \(plain) |\n")
    emit(
      "| \(arriving) arriving as | all joined after, ms | server CPU, s | per attendee, ms of CPU | HTTP bytes each, as sent | joined |"
    )
    emit("|---|---:|---:|---:|---:|---:|")
    for (name, outcome) in zip(
      [
        "page attendees (page, script, style, then the socket)",
        "baseline: qna attendees (the socket alone)",
      ], outcomes)
    {
      emit(
        "| \(name) | \(milliseconds(outcome.wall)) | \(String(format: "%.2f", outcome.cpu / .seconds(1))) | "
          + "\(String(format: "%.2f", outcome.cpu / .milliseconds(1) / Double(arriving))) | "
          + "\(outcome.httpBytes / arriving) | \(outcome.reached) of \(arriving) |")
    }
    if outcomes.count == 2 {
      emit(
        "\nPage ÷ qna attendees: time until all joined "
          + String(format: "%.2f", outcomes[0].wall / outcomes[1].wall) + ", server CPU "
          + String(format: "%.2f", outcomes[0].cpu / outcomes[1].cpu))
    }
  }

  /// `arriving` people enter: each loads `paths` first (the page and what it loads; none for
  /// `qna` attendees).
  static func arrive(server: ServerProcess, base: String, paths: [String]) async throws
    -> Outcome
  {
    let cpuBefore = RoomBench.cpuTime(of: server.pid)
    let start = ContinuousClock.now
    var httpBytes = 0
    if !paths.isEmpty {
      httpBytes = try await withThrowingTaskGroup(of: Int.self) { group in
        // Phones arrive over a second or so, not all in one instant: 64 loads at a time.
        var next = 0
        var total = 0
        func load() -> Int? {
          guard next < arriving else { return nil }
          next += 1
          return next
        }
        for _ in 0..<64 {
          guard load() != nil else { break }
          group.addTask { try await loadPage(base, paths) }
        }
        while let bytes = try await group.next() {
          total += bytes
          if load() != nil { group.addTask { try await loadPage(base, paths) } }
        }
        return total
      }
    }
    let fleet = try RoomFleet(
      size: arriving, url: "ws://127.0.0.1:\(server.port)/socket", counts: true)
    fleet.start()
    _ = await fleet.wait(seconds: 120, until: \.joined)
    let wall = ContinuousClock.now - start
    let cpu = RoomBench.cpuTime(of: server.pid) - cpuBefore
    let reached = fleet.snapshot.filter(\.joined).count
    await fleet.stop()
    return Outcome(wall: wall, cpu: cpu, httpBytes: httpBytes, reached: reached)
  }

  static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 64
    return URLSession(configuration: configuration)
  }()

  /// What a browser fetches to show the attendee page: the page, its style sheet, and
  /// room.js with every module it imports, followed as the browser follows them.
  static func firstLoadPaths(_ base: String) async throws -> [String] {
    var paths = ["/room/", "/assets/room.css"]
    var pending = ["room.js"]
    var seen: Set<String> = []
    while let name = pending.popLast() {
      guard seen.insert(name).inserted else { continue }
      paths.append("/assets/\(name)")
      let (data, _) = try await session.data(from: URL(string: base + "/assets/\(name)")!)
      pending += imports(String(decoding: data, as: UTF8.self))
    }
    return paths
  }

  /// The modules a script imports from beside it (`import … from './NAME';`).
  static func imports(_ script: String) -> [String] {
    script.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("import "), let from = line.range(of: " from './") else { return nil }
      let rest = line[from.upperBound...]
      return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
    }
  }

  static func loadPage(_ base: String, _ paths: [String]) async throws -> Int {
    var bytes = 0
    for path in paths {
      bytes += try await fetch(base + path).sent
    }
    return bytes
  }

  /// A response's body as it came (`sent`) and as read (`plain`): URLSession asks for gzip
  /// and inflates what comes compressed.
  struct Fetched {
    var sent: Int
    var plain: Int
  }

  static func fetch(_ url: String) async throws -> Fetched {
    let (data, response) = try await session.data(from: URL(string: url)!)
    guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
      throw BenchError.timedOut("\(url): \(response)")
    }
    let compressed = http.value(forHTTPHeaderField: "Content-Encoding") != nil
    let sent =
      compressed && http.expectedContentLength > 0 ? Int(http.expectedContentLength) : data.count
    return Fetched(sent: sent, plain: data.count)
  }
}
