import Foundation
import Logging
import QnAServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// qna-server under 1,000 concurrent attendees on the project's own engine: time until all
// of them have their response, then the answer fan-out latency when the presenter answers
// all 1,000 through HTTP. Beside it, the same run against the reference-like back end of the
// tests (Python aiohttp, Tests/Interop/reference_backend.py), when the virtualenv exists.

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "serve" {
  // The server, in a process of its own: this same binary with "serve".
  var configuration = ServerConfiguration()
  configuration.port = 0
  configuration.database = ":memory:"
  configuration.maxConnections = 100_000
  // "room-window=MS": the room's coalescing window (the baseline runs without one).
  for argument in arguments.dropFirst(2) where argument.hasPrefix("room-window=") {
    configuration.roomWindow = .milliseconds(Int(argument.dropFirst(12)) ?? 100)
  }
  // "deflate-level=N", "no-deflate": the compression the room's deltas pay per socket.
  for argument in arguments.dropFirst(2) where argument.hasPrefix("deflate-level=") {
    configuration.deflateLevel = Int(argument.dropFirst(14)) ?? configuration.deflateLevel
  }
  if arguments.contains("no-deflate") { configuration.deflate = false }
  // "legacy-broadcast": today's room format and per-socket framing and compression.
  if arguments.contains("legacy-broadcast") { configuration.legacyBroadcast = true }
  // "fixed-window": broadcasts spaced by the window alone, whatever writing them costs.
  if arguments.contains("fixed-window") { configuration.broadcastsSpacedByCost = false }
  // "votes-one-by-one": each vote a transaction of its own, as before votes were batched.
  if arguments.contains("votes-one-by-one") { configuration.databaseOptions.votesOneByOne = true }
  // "votes-on-tasks": each vote read by its socket's task and the codec, as before votes were
  // read on the event loop.
  if arguments.contains("votes-on-tasks") { configuration.votesOnLoop = false }
  // "db=LOCATION": an SQLite file or a postgres:// URL (the scale-out rows).
  for argument in arguments.dropFirst(2) where argument.hasPrefix("db=") {
    configuration.database = String(argument.dropFirst(3))
  }
  // "admin=TOKEN": the presenter API's token (several instances share one).
  for argument in arguments.dropFirst(2) where argument.hasPrefix("admin=") {
    configuration.adminToken = String(argument.dropFirst(6))
  }
  var logger = Logger(label: "bench-server")
  logger.logLevel = .critical
  let server = try QnAServerApp(configuration: configuration, logger: logger)
  try await server.run { port in
    FileHandle.standardOutput.write(Data("listening on ws://127.0.0.1:\(port)/socket\n".utf8))
  }
  exit(0)
}

// The storm's floor's server (`IOFloor`), in a process of its own.
if arguments.count > 1, arguments[1] == "floor-serve" {
  IOFloor.serve(arguments: arguments.dropFirst(2))
}

let attendeeCount = 1000

/// Answers a question through the presenter route; redirects are not followed.
final class NoRedirects: NSObject, URLSessionTaskDelegate {
  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }
}

struct Result {
  var connect: Duration
  var allResponses: Duration
  var p50: Duration
  var p99: Duration
  var fanOut: Duration
}

func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
  sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

/// Unbuffered: a table row shows even if a later row fails.
func emit(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func progress(_ line: String) {
  FileHandle.standardError.write(Data("  \(line)\n".utf8))
}

func run(against server: ServerProcess) async throws -> Result {
  progress("\(server.name): connecting \(attendeeCount) attendees")
  let fleet = try Fleet(size: attendeeCount, url: "ws://127.0.0.1:\(server.port)/socket")
  let connectStart = ContinuousClock.now
  fleet.start()
  guard await fleet.wait(seconds: 60, until: { $0.connectionID != nil }) else {
    throw BenchError.timedOut("\(server.name): handshakes")
  }
  let connected = ContinuousClock.now
  progress("\(server.name): asking")
  await fleet.askAll()
  guard await fleet.wait(seconds: 60, until: { $0.responseAt != nil }) else {
    throw BenchError.timedOut("\(server.name): responses")
  }
  let lastResponse = fleet.attendees.compactMap(\.responseAt).max()!

  progress("\(server.name): answering through HTTP")
  let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
  var latencies: [Duration] = []
  let fanOutStart = ContinuousClock.now
  for (index, attendee) in fleet.attendees.enumerated() {
    guard let id = attendee.questionID else { continue }
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/\(id)/answer")!)
    request.httpMethod = "POST"
    let sent = ContinuousClock.now
    _ = try await session.data(for: request)
    // The answer is written before the 303, but may still be on its way to the client.
    let deadline = sent + .seconds(5)
    while fleet.attendees[index].answerAt == nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .microseconds(50))
    }
    guard let arrived = fleet.attendees[index].answerAt else {
      throw BenchError.timedOut("\(server.name): the answer to question \(index)")
    }
    latencies.append(arrived - sent)
  }
  let fanOut = ContinuousClock.now - fanOutStart
  await fleet.stop()
  latencies.sort()
  return Result(
    connect: connected - connectStart, allResponses: lastResponse - connected,
    p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), fanOut: fanOut)
}

func milliseconds(_ duration: Duration) -> String {
  let (seconds, atto) = duration.components
  return String(format: "%.1f", Double(seconds) * 1e3 + Double(atto) / 1e15)
}

let benchDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let python = benchDirectory.appendingPathComponent(".venv/bin/python3").path
let reference = benchDirectory.appendingPathComponent("Tests/Interop/reference_backend.py").path

// `ServerBenchmarks scale [ATTENDEES]` runs the scale-out rows alone.
if arguments.count > 1, arguments[1] == "scale" {
  try await ScaleBench.report(
    attendees: arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000)
  exit(0)
}

// `ServerBenchmarks storm [ATTENDEES] [lean]` runs the vote storm on one core alone, then its
// floor beside it; `lean`: the attendees a `LeanFleet` (and no floor).
if arguments.count > 1, arguments[1] == "storm" {
  let attendees = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
  let lean = arguments.contains("lean")
  let ours = try await StormBench.report(
    executable: arguments[0], attendees: attendees, lean: lean)
  if !lean { try IOFloorBench.report(executable: arguments[0], attendees: attendees, beside: ours) }
  exit(0)
}

// `ServerBenchmarks storm-ours [ATTENDEES] [lean]`: ours alone, for paired runs.
if arguments.count > 1, arguments[1] == "storm-ours" {
  try await StormBench.ours(
    executable: arguments[0], attendees: arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000,
    lean: arguments.contains("lean"))
  exit(0)
}

// `ServerBenchmarks storm-windows [ATTENDEES] [lean]`: ours alone at several coalescing
// windows.
if arguments.count > 1, arguments[1] == "storm-windows" {
  try await StormBench.windows(
    executable: arguments[0], attendees: arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000,
    lean: arguments.contains("lean"))
  exit(0)
}

// `ServerBenchmarks storm-floor [ATTENDEES]`: the storm's bytes alone, on one core.
if arguments.count > 1, arguments[1] == "storm-floor" {
  try IOFloorBench.report(
    executable: arguments[0], attendees: arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000)
  exit(0)
}

// `ServerBenchmarks filter` runs the word filter's rows alone.
if arguments.count > 1, arguments[1] == "filter" {
  FilterBench.run()
  exit(0)
}

// `ServerBenchmarks joins` runs the joins' rows alone.
// `ServerBenchmarks polls [N]`: the poll's rows alone.
if arguments.count > 1, arguments[1] == "polls" {
  let attendees = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
  try await PollBench.report(executable: arguments[0], attendees: attendees)
  exit(0)
}
if arguments.count > 1, arguments[1] == "pages" {
  try await PageBench.report(executable: arguments[0])
  exit(0)
}
if arguments.count > 1, arguments[1] == "joins" {
  try await JoinBench.report(executable: arguments[0])
  exit(0)
}

// `ServerBenchmarks room` runs the room's rows alone (for profiling the fan-out).
let roomOnly = arguments.count > 1 && arguments[1] == "room"
// `ServerBenchmarks room serve-args…`: extra arguments for the room's servers (deflate-level=9).
let roomServerArguments = roomOnly ? Array(arguments.dropFirst(2)) : []
var servers: [(String, () throws -> ServerProcess)] = [
  (
    "qna-server (Hummingbird, SQLite in memory)",
    {
      try ServerProcess(name: "qna-server", executable: arguments[0], arguments: ["serve"])
    }
  )
]
if FileManager.default.isExecutableFile(atPath: python) {
  servers.append(
    (
      "reference-like back end (Python aiohttp, in memory)",
      {
        try ServerProcess(
          name: "aiohttp", executable: python, arguments: [reference, "--port", "0"])
      }
    ))
} else {
  emit("(no \(python): run `make test` once to get the baseline server)")
}

if !roomOnly {
  emit("## qna-server: \(attendeeCount) concurrent attendees, one question each\n")
  emit(
    "| server | connect all, ms | all responses, ms | answer p50, ms | answer p99, ms | 1,000 answers, ms |"
  )
  emit("|---|---:|---:|---:|---:|---:|")
  var results: [Result] = []
  for (name, start) in servers {
    let server = try start()
    defer { server.stop() }
    let result = try await run(against: server)
    results.append(result)
    emit(
      "| \(name) | \(milliseconds(result.connect)) | \(milliseconds(result.allResponses)) "
        + "| \(milliseconds(result.p50)) | \(milliseconds(result.p99)) | \(milliseconds(result.fanOut)) |"
    )
  }
  if results.count == 2 {
    let (ours, baseline) = (results[0], results[1])
    func ratio(_ a: Duration, _ b: Duration) -> String {
      String(
        format: "%.2f",
        (Double(a.components.seconds) + Double(a.components.attoseconds) / 1e18)
          / (Double(b.components.seconds) + Double(b.components.attoseconds) / 1e18))
    }
    emit(
      "\nBaseline ÷ ours (>1 = qna-server faster): all responses \(ratio(baseline.allResponses, ours.allResponses))×, "
        + "answer p50 \(ratio(baseline.p50, ours.p50))×, p99 \(ratio(baseline.p99, ours.p99))×")
  }
}

// The room: 2,000 attendees, 200 questions, 20,000 votes over 10 s, on the server's defaults
// (deflate negotiated by every attendee) with the compact room, and, as the baseline in the
// same run, the server before the room shared its work (`--legacy-broadcast`: today's format,
// each message framed and compressed per socket).
let roomAttendees = 2000
let roomQuestions = 200
let votesEach = 10
emit(
  "\n## The room: \(roomAttendees) attendees, \(roomQuestions) questions, "
    + "\(roomAttendees * votesEach) votes over 10 s\n")
emit(
  "| server | votes counted | server CPU, s (share of one core) | clients' CPU, s | bytes per attendee, wire | before compression | deltas per attendee | vote→delta p50, ms | p99, ms | reached the last vote | reconnects |"
)
emit("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
var roomResults: [RoomBench.Outcome] = []
for (name, legacy) in [
  ("qna-server: shared broadcast, compact room", false),
  ("baseline: per-socket broadcast, today's format (--legacy-broadcast)", true),
] {
  let server = try ServerProcess(
    name: name, executable: arguments[0],
    arguments: ["serve"] + (legacy ? ["legacy-broadcast"] : []) + roomServerArguments)
  defer { server.stop() }
  let outcome = try await RoomBench.run(
    server, attendees: roomAttendees, questions: roomQuestions, votesEach: votesEach,
    spread: .seconds(10), counts: !legacy)
  roomResults.append(outcome)
  let share = outcome.cpu / outcome.wall
  emit(
    "| \(name) | \(outcome.counted) | \(String(format: "%.2f (%.0f%%)", outcome.cpu / .seconds(1), share * 100)) "
      + "| \(String(format: "%.2f", outcome.clientCPU / .seconds(1))) "
      + "| \(String(format: "%.0f", outcome.wireBytesPerAttendee)) | \(String(format: "%.0f", outcome.bytesPerAttendee)) "
      + "| \(String(format: "%.0f", outcome.deltasPerAttendee)) "
      + "| \(milliseconds(outcome.p50)) | \(milliseconds(outcome.p99)) "
      + "| \(outcome.reached) of \(outcome.attendees) | \(outcome.reconnects) |")
}
if roomResults.count == 2 {
  let (ours, baseline) = (roomResults[0], roomResults[1])
  emit(
    "\nOurs ÷ baseline: server CPU \(String(format: "%.2f", ours.cpu / baseline.cpu)), "
      + "bytes per attendee on the wire \(String(format: "%.3f", ours.wireBytesPerAttendee / baseline.wireBytesPerAttendee)), "
      + "before compression \(String(format: "%.3f", ours.bytesPerAttendee / baseline.bytesPerAttendee)), "
      + "vote→delta p99 \(String(format: "%.2f", ours.p99 / baseline.p99))")
}

let stormOurs = try await StormBench.report(executable: arguments[0], attendees: roomAttendees)
try IOFloorBench.report(executable: arguments[0], attendees: roomAttendees, beside: stormOurs)
// #52's second storm: 10,000 attendees, whose own engines would saturate the fleet's core.
try await StormBench.report(executable: arguments[0], attendees: 10_000, lean: true)
try await PollBench.report(executable: arguments[0], attendees: 10_000)
try await JoinBench.report(executable: arguments[0])
try await PageBench.report(executable: arguments[0])

if !roomOnly {
  FilterBench.run()
  try await ExportBench.run()
  try await ScaleBench.report(attendees: 10_000)
}
