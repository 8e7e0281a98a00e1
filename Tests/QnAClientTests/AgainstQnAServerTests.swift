import Foundation
import TestSupport
import Testing

/// `qna --headless` against the project's own `qna-server`, both as processes.
@Suite("qna --headless against qna-server", .serialized)
struct AgainstQnAServerTests {
  static var binaries: URL {
    URL(fileURLWithPath: HeadlessProcess.qnaPath).deletingLastPathComponent()
  }

  @Test func askThenAnswerThroughTheAPIThenExitZero() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    let qna = try HeadlessProcess(
      ["--url", server.url, "--ask", "Real server?", "--wait-answered", "--timeout", "30s"],
      stdin: "")
    let created = try await qna.waitFor("created")
    let id = try #require(created["id"])
    let answer = try await server.http("POST", "/api/questions/\(id)/answer")
    #expect(answer.status == 200)
    _ = try await qna.waitFor("answered")
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    server.stop()
  }

  @Test func theREADMEsScriptedTestExamplePasses() async throws {
    let script = PeerProcess.packageRoot.appendingPathComponent("examples/scripted_test.py").path
    let child = try ChildProcess("/usr/bin/env", ["python3", script, "--bin", Self.binaries.path])
    let output = await onOwnThread { child.stdout.readDataToEndOfFile() }
    let errors = await onOwnThread { child.stderr.readDataToEndOfFile() }
    #expect(await onOwnThread { child.wait() } == 0, "\(String(decoding: errors, as: UTF8.self))")
    #expect(String(decoding: output, as: UTF8.self).hasPrefix("ok: 2 asked"))
  }
}
