import Foundation
import InteropPeers
import Testing

/// `qna --headless` against the project's own `qna-server`, both as processes.
@Suite("qna --headless against qna-server", .serialized)
struct AgainstQnAServerTests {
  static var binaries: URL {
    URL(fileURLWithPath: HeadlessProcess.qnaPath).deletingLastPathComponent()
  }

  /// Starts `qna-server` on a free port; returns it and its socket URL.
  func startServer(_ arguments: [String] = []) async throws -> (ChildProcess, String) {
    let path = Self.binaries.appendingPathComponent("qna-server").path
    let child = try ChildProcess(path, ["--port", "0", "--db", ":memory:"] + arguments)
    let line = await onOwnThread { () -> String in
      var bytes: [UInt8] = []
      while bytes.last != 0x0A, let byte = child.stdout.readData(ofLength: 1).first {
        bytes.append(byte)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    let url = line.replacingOccurrences(of: "listening on ", with: "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return (child, url)
  }

  @Test func askThenAnswerThroughTheAPIThenExitZero() async throws {
    let (server, url) = try await startServer()
    let port = Int(url.split(separator: ":")[2].prefix { $0.isNumber })!
    let qna = try HeadlessProcess(
      ["--url", url, "--ask", "Real server?", "--wait-answered", "--timeout", "30s"], stdin: "")
    let created = try await qna.waitFor("created")
    let id = try #require(created["id"])
    let answer = try await onOwnThread {
      try httpRequest("POST", port: port, path: "/api/questions/\(id)/answer")
    }
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
