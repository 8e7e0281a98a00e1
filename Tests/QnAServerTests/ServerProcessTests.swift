import Foundation
import TestSupport
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
    let cases: [([String], String)] = [
      (["--rate-window", "soon"], "invalid duration"), (["--reject", "x"], "need --mock"),
      (["--mock", "--reject", "("], "not a valid regular expression"),
      // Each limit is named: "limits must be positive" left the user to guess which.
      (["--rate-limit", "0"], "--rate-limit must be more than 0"),
      (["--rate-window", "0s"], "--rate-window must be more than 0"),
      (["--max-message-size", "100"], "--max-message-size must be at least 125"),
      // A name or a range would never match a peer's address, silently.
      (["--trusted-proxy", "proxy.example"], "--trusted-proxy 'proxy.example' is not an IP"),
      (["--trusted-proxy", "10.0.0.0/8"], "is not an IP address"),
      // A mistyped level had silently logged at info.
      (["--log-level", "loud"], "--log-level must be one of"),
      (["--log-format", "xml"], "--log-format must be text or json"),
    ]
    for (arguments, words) in cases {
      let child = try ChildProcess(
        Self.serverPath, ["--port", "0", "--db", ":memory:"] + arguments)
      let errors = String(
        decoding: await onOwnThread { child.stderr.readDataToEndOfFile() }, as: UTF8.self)
      #expect(await onOwnThread { child.wait() } == 64, "\(arguments)")
      #expect(errors.hasPrefix("qna-server: "), "\(arguments): \(errors)")
      #expect(errors.contains(words), "\(arguments): \(errors)")
    }
  }
}

/// Idle and half-sent connections by the thousand, as a slowloris attack or a crowd of
/// broken clients makes them, against the server's default settings.
@Suite("qna-server under connection load", .serialized)
struct ConnectionLoadTests {
  @Test func twoThousandIdleAndFiveHundredHalfSentConnectionsLeaveTheDoorOpen() async throws {
    // This process holds the 2,500 connections: it needs the descriptors itself.
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    try #require(limit.rlim_cur >= 6000, "the hard open-file limit is too low for this test")
    // Started as laptops and many servers start it: a soft limit of 1,024 open files.
    let server = try await QnAServerProcess(
      ["--port", "0", "--db", ":memory:"],
      wrapper: ["/bin/sh", "-c", #"ulimit -Sn 1024 && exec "$0" "$@""#])
    defer { server.stop() }
    let port = server.port
    let (idle, halfSent) = await onOwnThread {
      let idle = (0..<2000).compactMap { _ in loopbackConnection(port: port) }
      let halfSent = (0..<500).compactMap { _ in
        loopbackConnection(port: port, sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
      }
      return (idle, halfSent)
    }
    defer { for fd in idle + halfSent { close(fd) } }
    #expect(idle.count == 2000 && halfSent.count == 500)
    // Held open: measured once the server has taken them all in.
    try await Task.sleep(for: .seconds(1))

    let pageStarted = ContinuousClock.now
    let page = try await server.http("GET", "/")
    let pageTook = ContinuousClock.now - pageStarted
    let socketStarted = ContinuousClock.now
    let attendee = try Attendee(server.url)
    _ = try await attendee.handshake()
    let socketTook = ContinuousClock.now - socketStarted
    print(
      "with 2,000 idle and 500 half-sent connections: GET / in \(pageTook), "
        + "a new attendee's handshake in \(socketTook)")
    #expect(page.status == 200)
    #expect(pageTook < .seconds(1) && socketTook < .seconds(1))
    #expect(server.log.contains("open files: "), "\(server.log.prefix(500))")
    #expect(server.log.contains("(was 1024"), "the soft limit was raised")
    await attendee.close()
  }
}
