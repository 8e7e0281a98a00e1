import Foundation
import Logging
import QnAGuards
import QnALogHandlers
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import Synchronization
import TestSupport
import Testing

/// What operators point their tools at: the probes and the JSON log.
@Suite("Operations: probes and JSON logs")
struct OperationsTests {
  @Test func healthzSaysAliveAndReadyzReady() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let health = try await server.http("GET", "/healthz")
    #expect(health.status == 200 && health.body.contains(#""status":"alive""#))
    let ready = try await server.http("GET", "/readyz")
    #expect(ready.status == 200 && ready.body.contains(#""status":"ready""#))
  }

  /// The probes need no token: a load balancer has none.
  @Test func theProbesAreOpenWhenTheRestNeedsAToken() async throws {
    let server = try await ServerUnderTest { $0.adminToken = "a-long-admin-token" }
    defer { Task { await server.stop() } }
    #expect(try await server.http("GET", "/api/questions").status == 401)
    #expect(try await server.http("GET", "/healthz").status == 200)
    #expect(try await server.http("GET", "/readyz").status == 200)
  }

  /// Another process (a backup, `sqlite3`) holding the database past the busy timeout: the
  /// server is alive but cannot store a question, so it is not ready, and says why.
  @Test func aDatabaseLockedByAnotherProcessIsNotReadyUntilItIsReleased() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qna.sqlite")
    let server = try await ServerUnderTest { $0.database = path }
    defer { Task { await server.stop() } }
    // Python's sqlite3 holds the write lock until its stdin closes.
    let holder = try ChildProcess(
      "/usr/bin/python3",
      [
        "-c",
        """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        sys.stdin.read()
        db.execute("COMMIT")
        """,
        path,
      ])
    defer { holder.stop() }
    #expect(await onOwnThread { holder.readStdoutLine() } == "locked\n")
    let locked = try await server.http("GET", "/readyz")
    #expect(locked.status == 503)
    #expect(locked.body.contains(#""status":"unready""#))
    // Its kind in fixed words; the driver's message (paths, hosts, users) only in the log.
    #expect(locked.body.contains(#""reason":"database locked""#), "\(locked.body)")
    #expect(!locked.body.contains("qna.sqlite") && !locked.body.contains("SQLite error"))
    #expect(try await server.http("GET", "/healthz").status == 200, "alive all the same")
    try holder.stdin.close()
    #expect(await onOwnThread { holder.wait() } == 0)
    #expect(try await server.http("GET", "/readyz").status == 200)
  }

  /// A value on its own line of the exposition (`name value`).
  static func sample(_ name: String, in text: String) -> Double? {
    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
      .flatMap { Double($0.split(separator: " ")[1]) }
  }

  @Test func metricsCountQuestionsVotesAnswersSocketsAndLatencies() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let asker = try await RoomMember.join(server, as: UUID())
    let voter = try await RoomMember.join(server, as: UUID())
    let id = try await asker.socket.askedQuestion("Counted?", as: asker.connection)
    let token = UUID()
    try await voter.vote(id, token: token)
    #expect(try await voter.voteResponse(token).success)
    _ = try await voter.waitForVotes(id, 1)
    #expect(try await server.http("POST", "/api/questions/\(id)/answer").status == 200)

    let scrape = try await server.http("GET", "/metrics")
    #expect(scrape.status == 200)
    #expect(scrape.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
    let text = scrape.body
    #expect(Self.sample("qna_questions_total", in: text) == 1)
    #expect(Self.sample("qna_votes_total", in: text) == 1)
    #expect(Self.sample("qna_votes_on_loop_total", in: text) != nil)
    #expect(Self.sample("qna_answers_total", in: text) == 1)
    #expect(Self.sample("qna_websockets_open", in: text) == 2)
    #expect(text.contains("# TYPE qna_room_fanout_seconds histogram"))
    #expect((Self.sample("qna_room_fanout_seconds_count", in: text) ?? 0) >= 1)
    #expect((Self.sample("qna_database_seconds_count", in: text) ?? 0) >= 3)
    // The vote's and the answer's deltas were written to two sockets: some CPU time.
    #expect((Self.sample("qna_broadcast_write_cpu_seconds_total", in: text) ?? 0) > 0)
    await asker.socket.close()
    await voter.socket.close()
  }

  /// A scraper holds the token like any API client; without it, 401 like the API.
  @Test func metricsNeedTheAdminTokenWhenThereIsOne() async throws {
    let token = "a-long-admin-token"
    let server = try await ServerUnderTest { $0.adminToken = token }
    defer { Task { await server.stop() } }
    #expect(try await server.http("GET", "/metrics").status == 401)
    let scrape = try await server.http(
      "GET", "/metrics", headers: ["Authorization": "Bearer \(token)"])
    #expect(scrape.status == 200 && scrape.body.contains("qna_questions_total 0"))
  }

  /// Every log event's level and message, of every label.
  struct CapturingLogHandler: LogHandler {
    let lines: Lines
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { lines.append("\(event.level) \(event.message)") }
  }

  /// A refused upgrade is one warning saying why; Hummingbird's error about the upgrade that
  /// did not happen would page an operator for every stranger's request.
  @Test func aRefusedUpgradeIsAWarningWithItsReasonAndNoError() async throws {
    let lines = Lines()
    let logger = Logger(label: "qna-server") { _ in CapturingLogHandler(lines: lines) }
    let server = try await ServerUnderTest(logger: logger)
    defer { Task { await server.stop() } }
    let host = "127.0.0.1:\(server.port)"
    let upgrade = """
      Host: \(host)\r
      Upgrade: websocket\r
      Connection: Upgrade\r
      Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
      Sec-WebSocket-Version: 13\r

      """
    let evil = try await server.raw(
      "GET /socket HTTP/1.1\r\n" + upgrade + "Origin: http://evil.example\r\n\r\n")
    #expect(evil.status == 403)
    let unknown = try await server.raw("GET /s/NOPE/socket HTTP/1.1\r\n" + upgrade + "\r\n")
    #expect(unknown.status == 404)
    // An accepted upgrade after them: the log is complete up to here.
    let attendee = try Attendee(server.socketURL)
    _ = try await attendee.handshake()
    await attendee.close()
    let logged = lines.lines.withLock { $0 }
    #expect(logged.contains { $0.hasPrefix("warning refused GET /socket with 403") })
    #expect(logged.contains { $0.hasPrefix("warning refused GET /s/NOPE/socket with 404") })
    #expect(!logged.contains { $0.hasPrefix("error") }, "\(logged)")
  }

  /// A server on the network without `--public-url` shows join addresses built from each
  /// request's `Host`: said once at start, when there are sessions to join.
  @Test func sessionsWithoutAPublicURLAreWarnedOfAtStart() async throws {
    let lines = Lines()
    let logger = Logger(label: "qna-server") { _ in CapturingLogHandler(lines: lines) }
    let store = try StoreLocation.open(":memory:")
    await QnAServerApp.warnOfJoinAddresses(store: store, logger: logger)
    #expect(lines.lines.withLock { $0.isEmpty }, "no session, nothing to say")
    var random = SystemRandomNumberGenerator()
    _ = try await store.directory.createSession(title: "Keynote", at: Date(), using: &random)
    await QnAServerApp.warnOfJoinAddresses(store: store, logger: logger)
    let said = lines.lines.withLock { $0 }
    #expect(said.count == 1 && said[0].hasPrefix("warning") && said[0].contains("--public-url"))
  }

  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
  }

  /// How the systemd unit gives the token: out of the command line, where `ps` shows it.
  @Test func theAdminTokenMayComeFromTheEnvironment() async throws {
    let token = "a-token-from-the-environment"
    let server = try await QnAServerProcess(
      ["--port", "0", "--db", ":memory:"], environment: ["QNA_ADMIN_TOKEN": token])
    defer { server.stop() }
    #expect(try await server.http("GET", "/api/questions").status == 401)
    let authorised = try await server.http(
      "GET", "/api/questions", headers: ["Authorization": "Bearer \(token)"])
    #expect(authorised.status == 200)
  }

  @Test func theServerLogsJSONWhenAsked() async throws {
    let server = try await QnAServerProcess(
      ["--port", "0", "--db", ":memory:", "--log-format", "json"])
    // Shutting down logs too: every line until the process ends.
    server.stop()
    var errors = ""
    for _ in 0..<200 {
      errors = server.child.errorsSoFar
      if errors.contains("shutting down") { break }
      try await Task.sleep(for: .milliseconds(10))
    }
    let lines = errors.split(separator: "\n")
    #expect(lines.count >= 2, "\(errors)")
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["message"] is String && object?["level"] is String, "\(line)")
    }
  }
}
