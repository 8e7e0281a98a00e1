import Foundation
import QnAClient
import TestSupport
import Testing

/// `qna --headless` against servers that misbehave on purpose (Tests/Interop/fault_server.py):
/// memory stays bounded, their text never reaches a terminal raw, and a captive portal is
/// waited out.
@Suite("qna --headless against hostile servers", .serialized)
struct HostileServerTests {
  static let escape = UInt8(0x1B)

  @Test func aPingFloodThatNeverReadsLeavesTheClientSmall() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    defer { server.stop() }
    let qna = try HeadlessProcess(
      ["--url", "ws://127.0.0.1:\(server.port)/ping-flood?seconds=10", "--no-reconnect"],
      stdin: "")
    var peak = 0
    let pid = qna.pid
    let started = ContinuousClock.now
    let watcher = Task {
      var peak = 0
      while let bytes = ProcessMemory.residentBytes(of: pid), !Task.isCancelled {
        peak = max(peak, bytes)
        try? await Task.sleep(for: .milliseconds(50))
      }
      return peak
    }
    _ = await qna.exitStatus()
    let lasted = ContinuousClock.now - started
    watcher.cancel()
    peak = await watcher.value
    print("ping flood for \(lasted): qna's peak RSS \(peak / 1_048_576) MB")
    #expect(qna.events.contains { $0.name == "connected" }, "the flood reached an open socket")
    #expect(lasted >= .seconds(9), "it lasted until the server gave up")
    #expect(peak > 0 && peak < 150 * 1_048_576, "peak RSS \(peak) bytes")
  }

  /// Before: a 5,000-question room then 300,000 small deltas, with stdout a pipe nobody
  /// reads, grew qna to 8.8 GB in 25 s (880 MB after 100,000 into a file, never released):
  /// every update waited, a whole state each. Now updates wait merged, bounded by the room.
  /// 100,000 deltas show it (the old code's 880 MB against a 200 MB bound) in a third of the
  /// time, most of it the Python server's.
  @Test(arguments: [false, true])
  func aFloodOfRoomChangesCostsMemoryForTheRoomNotTheFlood(toFile: Bool) async throws {
    let server = try PeerProcess(script: "fault_server.py")
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    let done = directory.path("done")
    let url =
      "ws://127.0.0.1:\(server.port)/room-flood?questions=5000&deltas=100000&done=\(done)"
    let arguments = ["--headless", "--room", "--url", url, "--no-reconnect"]
    let environment = ["XDG_STATE_HOME": directory.path("state")]
    // To a file (the shell only opens it: exec keeps the pid), or a pipe nobody reads.
    let qna =
      toFile
      ? try ChildProcess(
        "/bin/sh", ["-c", #"exec "$0" "$@" > "$OUT""#, HeadlessProcess.qnaPath] + arguments,
        environment: environment.merging(["OUT": directory.path("out.jsonl")]) { $1 })
      : try ChildProcess(HeadlessProcess.qnaPath, arguments, environment: environment)
    defer { qna.stop() }
    var peak = 0
    let started = ContinuousClock.now
    while !FileManager.default.fileExists(atPath: done),
      ContinuousClock.now - started < .seconds(120)
    {
      peak = max(peak, ProcessMemory.residentBytes(of: qna.pid) ?? 0)
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(FileManager.default.fileExists(atPath: done), "the server sent the whole flood")
    // A while after the last delta, while the output still has the flood to write.
    for _ in 0..<20 {
      peak = max(peak, ProcessMemory.residentBytes(of: qna.pid) ?? 0)
      try await Task.sleep(for: .milliseconds(100))
    }
    print("room flood to \(toFile ? "a file" : "a blocked pipe"): qna's peak RSS \(peak >> 20) MB")
    #expect(peak > 0 && peak < 200 << 20, "peak RSS \(peak >> 20) MB")
  }

  @Test func aHostileCloseReasonIsEscapedOnStdoutAndStderr() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    defer { server.stop() }
    let qna = try HeadlessProcess(
      ["--url", "ws://127.0.0.1:\(server.port)/hostile-close", "--no-reconnect"], stdin: "")
    #expect(await qna.exitStatus() == 1)
    let disconnect = try await qna.waitFor("disconnected")
    #expect(
      disconnect["reason"]?.contains("bye\u{1B}[2J\u{1B}]52;c;") == true, "the JSON carries it")
    #expect(!Array(qna.rawOutput.utf8).contains(Self.escape), "escaped as \\u001b in JSON")
    #expect(!Array(qna.stderr.utf8).contains(Self.escape))
    #expect(qna.stderr.contains(#"bye\e[2J\e]52;c;cHduZWQ=\x07"#), "\(qna.stderr)")
  }

  @Test func aHostileReasonPhraseAndLocationAreEscaped() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    defer { server.stop() }
    let qna = try HeadlessProcess(
      ["--url", "ws://127.0.0.1:\(server.port)/hostile-status", "--no-reconnect"], stdin: "")
    #expect(await qna.exitStatus() == 1)
    #expect(!Array(qna.rawOutput.utf8).contains(Self.escape))
    #expect(!Array(qna.stderr.utf8).contains(Self.escape))
    #expect(qna.stderr.contains("302"), "\(qna.stderr)")
  }

  @Test func aCaptivePortalIsWaitedOutAndTheQuestionThenGoesThrough() async throws {
    let portal = try PeerProcess(script: "fault_server.py", arguments: ["--portal"])
    let port = portal.port
    let qna = try HeadlessProcess(
      [
        "--url", "ws://127.0.0.1:\(port)/socket", "--max-backoff", "1s", "--ask", "through?",
        "--exit-after-send", "--timeout", "30s",
      ])
    let refused = try await qna.waitFor("disconnected", occurrence: 1)
    #expect(refused["reason"]?.contains("HTTP 200") == true)
    #expect(refused.fields["retryIn"] is Double, "a portal's page is retried")
    portal.stop()
    let server = try await QnAServerProcess(["--port", "\(port)", "--db", ":memory:"])
    defer { server.stop() }
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    #expect(try await server.questions().compactMap { $0["content"] as? String } == ["through?"])
  }

  @Test func aSymlinkPlantedAtThePendingFileIsNotFollowed() async throws {
    let state = HeadlessProcess.freshDirectory()
    let directory = state.appendingPathComponent("qna")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = "ws://127.0.0.1:9/socket"
    let victim = state.appendingPathComponent("victim.txt")
    try Data("precious\n".utf8).write(to: victim)
    let planted = PendingQuestionsFile(directory: directory, serverURL: url).url.path
    try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: victim.path)

    let qna = try HeadlessProcess(["--url", url, "--max-backoff", "1s"], stateDirectory: state)
    qna.write("kept safely")
    _ = try await qna.waitFor("queued")
    qna.interrupt()
    #expect(await qna.exitStatus() == 0)
    #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n", "target untouched")
    let attributes = try FileManager.default.attributesOfItem(atPath: planted)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular, "the link was replaced")
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)
    #expect((directoryMode[.posixPermissions] as? Int) == 0o700)
    let saved = try String(contentsOfFile: planted, encoding: .utf8)
    #expect(saved.contains("kept safely"))
  }

  @Test func thePendingFilesNameStaysShortWhateverTheURL() {
    let long =
      "ws://" + String(repeating: "é", count: 300) + ".example/"
      + String(
        repeating: "日本", count: 200)
    let file = PendingQuestionsFile(directory: URL(fileURLWithPath: "/tmp"), serverURL: long)
    #expect(file.url.lastPathComponent.utf8.count + ".unreadable".count < 255)
    let other = PendingQuestionsFile(directory: URL(fileURLWithPath: "/tmp"), serverURL: long + "x")
    #expect(file.url != other.url, "the hash keeps them apart")
  }
}
