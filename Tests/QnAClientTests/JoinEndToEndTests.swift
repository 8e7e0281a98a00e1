import Foundation
import TestSupport
import Testing

/// `qna join CODE` as scripts use it, against `qna-server` and against a back end without
/// sessions: the right session or a clear error, before anything is asked.
@Suite("qna join", .serialized)
struct JoinEndToEndTests {
  static func session(_ title: String, database: String) throws -> (code: String, token: String) {
    let made = try ProgramRun(
      QnAServerProcess.path, ["session", "create", title, "--db", database])
    let lines = made.output.split(separator: "\n").map(String.init)
    let code = try #require(lines.first { $0.hasPrefix("code: ") }).dropFirst(6)
    let token = try #require(lines.first { $0.hasPrefix("token: ") }).dropFirst(7)
    return (String(code), String(token))
  }

  static func join(_ arguments: [String], state: URL) throws -> ProgramRun {
    try ProgramRun(HeadlessProcess.qnaPath, ["join"] + arguments + ["--state-dir", state.path])
  }

  @Test func joinAsksInThatSessionOnlyAndKeepsStatePerSession() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let database = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    defer { server.stop() }
    let one = try Self.session("One", database: database)
    let two = try Self.session("Two", database: database)
    let state = HeadlessProcess.freshDirectory()
    let url = "ws://127.0.0.1:\(server.port)"
    for (session, question) in [(one, "Asked in one"), (two, "Asked in two")] {
      let run = try Self.join(
        [
          session.code.lowercased(), "--url", url, "--headless", "--ask", question,
          "--exit-after-send",
        ], state: state)
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.output.contains(#""session":"\#(session.code)""#), "\(run.output)")
      let listed = try await server.http(
        "GET", "/s/\(session.code)/api/questions",
        headers: ["Authorization": "Bearer \(session.token)"])
      #expect(listed.body.contains(question))
      #expect(!listed.body.contains(question == "Asked in one" ? "Asked in two" : "Asked in one"))
    }
    #expect(try await server.questions().isEmpty, "the default session has none of them")
    // One attendee id per server and session.
    let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
    #expect(files.filter { $0.hasPrefix("attendee") }.count == 2, "\(files)")
  }

  @Test func aWrongClosedOrMalformedCodeIsAnErrorBeforeAnythingIsAsked() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let database = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    defer { server.stop() }
    let closed = try Self.session("Over", database: database)
    _ = try ProgramRun(QnAServerProcess.path, ["session", "close", closed.code, "--db", database])
    let url = "ws://127.0.0.1:\(server.port)"
    let state = HeadlessProcess.freshDirectory()
    for (code, status, words) in [
      ("ABCDEF", Int32(1), "there is no session ABCDEF"),
      (closed.code, 1, "session \(closed.code) (Over) is closed"),
      ("O0I1L5", 64, "is not a join code"),
    ] {
      let run = try Self.join([code, "--url", url, "--headless", "--ask", "Lost?"], state: state)
      #expect(run.status == status && run.errors.contains(words), "\(code): \(run.errors)")
      #expect(!run.output.contains("Lost?"), "nothing queued or asked")
    }
    #expect(try await server.questions().isEmpty)
  }

  /// What a user pastes: the address `session create` prints (the QR code's and the
  /// projector's), a code with the page's http:// server as --url, and a bare code.
  @Test func joinTakesTheAddressTheServerPrintsAndThePagesScheme() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let database = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", database])
    defer { server.stop() }
    let origin = "http://127.0.0.1:\(server.port)"
    let made = try ProgramRun(
      QnAServerProcess.path,
      ["session", "create", "Pasted", "--db", database, "--public-url", origin])
    let lines = made.output.split(separator: "\n").map(String.init)
    let code = String(try #require(lines.first { $0.hasPrefix("code: ") }).dropFirst(6))
    let printed = String(try #require(lines.first { $0.hasPrefix("join: ") }).dropFirst(6))
    #expect(printed == "\(origin)/s/\(code)/")
    let state = HeadlessProcess.freshDirectory()
    for (number, arguments) in [
      [printed], [code, "--url", origin],
      [code.lowercased(), "--url", "ws://127.0.0.1:\(server.port)"],
    ].enumerated() {
      let run = try Self.join(
        arguments + ["--headless", "--ask", "Pasted \(number)", "--exit-after-send"], state: state)
      #expect(run.status == 0, "\(arguments): \(run.errors)")
      #expect(run.output.contains(#""session":"\#(code)""#), "\(run.output)")
    }
    let token = String(try #require(lines.first { $0.hasPrefix("token: ") }).dropFirst(7))
    let listed = try await server.http(
      "GET", "/s/\(code)/api/questions", headers: ["Authorization": "Bearer \(token)"])
    for number in 0..<3 { #expect(listed.body.contains("Pasted \(number)"), "\(listed.body)") }
    // https:// is the page's secure scheme: qna goes to wss:// (TLS, which this plain server
    // does not speak), never "unsupported URL scheme".
    // A failed TLS handshake is retried like any failed link: --timeout ends the run.
    let secure = try Self.join(
      [
        code, "--url", "https://127.0.0.1:\(server.port)", "--headless", "--ask", "TLS?",
        "--exit-after-send", "--timeout", "3s",
      ], state: state)
    #expect(secure.status == 5 && !secure.errors.contains("unsupported URL scheme"))
    let reasons = secure.output.split(separator: "\n").filter { $0.contains("disconnected") }
    #expect(reasons.contains { $0.lowercased().contains("tls") }, "\(secure.output)")
  }

  @Test func aBackEndWithoutSessionsIsAClearError() async throws {
    let backend = try PeerProcess(script: "reference_backend.py")
    defer { backend.stop() }
    let run = try Self.join(
      ["K7M2QX", "--url", "ws://127.0.0.1:\(backend.port)", "--headless", "--ask", "Here?"],
      state: HeadlessProcess.freshDirectory())
    #expect(run.status == 1 && run.errors.contains("there is no session K7M2QX"), "\(run.errors)")
  }
}
