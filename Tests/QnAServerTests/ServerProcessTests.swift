import Foundation
import InteropPeers
import Testing

/// `qna-server` as an operator runs it: the first stdout line, signals, restarts.
@Suite("qna-server as a process", .serialized)
struct ServerProcessTests {
  static var serverPath: String { QnAServerProcess.path }

  @Test func questionsSurviveARestartAndSIGTERMClosesWith1001() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("qna-server-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("qna.sqlite").path

    let first = try await QnAServerProcess(["--port", "0", "--db", database])
    let attendee = try Attendee(first.url)
    try await attendee.ask("Will I survive?", as: try await attendee.handshake())
    let id = try #require(try await attendee.response().id)
    kill(first.child.pid, SIGTERM)
    guard case .closed(let status) = try await attendee.disconnect() else {
      Issue.record("expected a close frame")
      return
    }
    #expect(status.code.rawValue == 1001 && status.wasClean)
    let exitStatus = await onOwnThread { first.child.wait() }
    #expect(exitStatus == 0)

    let second = try await QnAServerProcess(["--port", "0", "--db", database])
    let list = try await second.http("GET", "/api/questions")
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
