import Foundation
import InteropPeers
import Testing

/// `qna-server` as an operator runs it: the first stdout line, signals, restarts.
@Suite("qna-server as a process", .serialized)
struct ServerProcessTests {
  static var serverPath: String {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("qna-server").path,
      PeerProcess.packageRoot.appendingPathComponent(".build/debug/qna-server").path,
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
  }

  /// Starts the server and reads its first line: "listening on ws://127.0.0.1:PORT/socket".
  func start(_ arguments: [String]) async throws -> (ChildProcess, Int) {
    try await onOwnThread { try startBlocking(arguments) }
  }

  func startBlocking(_ arguments: [String]) throws -> (ChildProcess, Int) {
    let child = try ChildProcess(Self.serverPath, arguments)
    var line: [UInt8] = []
    while line.last != 0x0A {
      guard let byte = child.stdout.readData(ofLength: 1).first else { break }
      line.append(byte)
    }
    let text = String(decoding: line, as: UTF8.self)
    guard text.hasPrefix("listening on ws://127.0.0.1:"), text.hasSuffix("/socket\n"),
      let port = Int(text.dropFirst(28).dropLast(8))
    else {
      throw ServerTestError.timedOut("listening line, got '\(text)'", [])
    }
    return (child, port)
  }

  @Test func questionsSurviveARestartAndSIGTERMClosesWith1001() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("qna-server-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("qna.sqlite").path

    let (first, port) = try await start(["--port", "0", "--db", database])
    let attendee = try Attendee("ws://127.0.0.1:\(port)/socket")
    try await attendee.ask("Will I survive?", as: try await attendee.handshake())
    let id = try #require(try await attendee.response().id)
    kill(first.pid, SIGTERM)
    guard case .closed(let status) = try await attendee.disconnect() else {
      Issue.record("expected a close frame")
      return
    }
    #expect(status.code.rawValue == 1001 && status.wasClean)
    let exitStatus = await onOwnThread { first.wait() }
    #expect(exitStatus == 0)

    let (second, newPort) = try await start(["--port", "0", "--db", database])
    let list = try await onOwnThread {
      try httpRequest("GET", port: newPort, path: "/api/questions")
    }
    #expect(list.body.contains(id.uuidString) && list.body.contains("Will I survive?"))
    second.stop()
  }

  @Test func refusesAPublicAddressWithoutAToken() async throws {
    let child = try ChildProcess(Self.serverPath, ["--host", "0.0.0.0", "--db", ":memory:"])
    let errors = await onOwnThread { child.stderr.readDataToEndOfFile() }
    #expect(await onOwnThread { child.wait() } == 64)
    #expect(String(decoding: errors, as: UTF8.self).contains("without --admin-token"))
  }

  @Test func badOptionsAreUsageErrors() async throws {
    for arguments in [["--rate-window", "soon"], ["--reject", "x"], ["--mock", "--reject", "("]] {
      let child = try ChildProcess(
        Self.serverPath, ["--port", "0", "--db", ":memory:"] + arguments)
      let errors = String(
        decoding: await onOwnThread { child.stderr.readDataToEndOfFile() }, as: UTF8.self)
      #expect(await onOwnThread { child.wait() } == 64, "\(arguments)")
      #expect(errors.hasPrefix("qna-server: "), "\(arguments): \(errors)")
    }
  }
}
