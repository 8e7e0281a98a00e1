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

/// `qna --headless` behind one address the server counts, on its defaults (issue 46): more
/// clients at once than the lane of those that cannot pay (10), each paying for its identity
/// (extension `identityWork`), each issued one. In a network namespace of its own, where the
/// address is not loopback (Tests/Interop/behind_one_address.sh).
@Suite("qna --headless behind one address")
struct BehindOneAddressTests {
  @Test func everyClientPaysForItsIdentityAndGetsOne() async throws {
    let clients = 14
    let script = PeerProcess.packageRoot.appendingPathComponent(
      "Tests/Interop/behind_one_address.sh"
    ).path
    let child = try ChildProcess(
      "/usr/bin/unshare",
      ["-n", "/bin/sh", script, AgainstQnAServerTests.binaries.path, String(clients)])
    let output = await onOwnThread { child.stdout.readDataToEndOfFile() }
    let errors = await onOwnThread { child.stderr.readDataToEndOfFile() }
    #expect(await onOwnThread { child.wait() } == 0, "\(String(decoding: errors, as: UTF8.self))")
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == clients, "\(lines)")
    var attendees: Set<Substring> = []
    for line in lines {
      // "client N exit STATUS identity ATTENDEE CREDENTIAL"
      let words = line.split(separator: " ")
      #expect(words.count == 7 && words[3] == "0", "\(line)")
      if words.count == 7 { attendees.insert(words[5]) }
    }
    #expect(attendees.count == clients)
  }
}
