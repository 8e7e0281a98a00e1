import Foundation
import TestSupport
import Testing

/// `qna --headless` against a real Q&A server (Tests/Interop/reference_backend.py, which
/// behaves as docs/protocol.md describes the existing back ends), driven through its HTTP routes.
@Suite("qna --headless end to end", .serialized)
struct HeadlessEndToEndTests {
  func url(_ server: PeerProcess) -> String { "ws://127.0.0.1:\(server.port)/socket" }

  @Test func askSeeCreatedAnswerOverHTTPSeeAnsweredExitZero() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let qna = try HeadlessProcess(
      [
        "--url", url(server), "--ask", "Why Swift on Linux? / ü", "--wait-answered", "--timeout",
        "30s",
      ],
      stdin: "")
    let created = try await qna.waitFor("created")
    #expect(created["content"] == "Why Swift on Linux? / ü")
    #expect(created["message"] == "Question created. We will answer it as soon as possible :]")
    let id = try #require(created["id"])
    let answer = try httpRequest("POST", port: server.port, path: "/\(id)/answer")
    #expect(answer.status == 303)
    let answered = try await qna.waitFor("answered")
    #expect(answered["token"] == created["token"])
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    // The first attempt is reported when the connection's first event arrives, and `--ask`
    // queues its question as the engine starts: either may come first (on a busy machine the
    // question does). Everything after them is in this order.
    let names = qna.events.map(\.name)
    #expect(Set(names.prefix(2)) == ["connecting", "queued"])
    #expect(
      Array(names.dropFirst(2)) == [
        "connected", "handshake", "sent", "created", "notice", "answered", "disconnected",
      ])
  }

  /// Behind a network that lets nothing out but a proxy: the question goes through it, the
  /// answer comes back through it.
  @Test func aQuestionAndItsAnswerGoThroughTheProxyOfTheEnvironment() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let proxy = try ProxyProcess.tinyproxy()
    let qna = try HeadlessProcess(
      ["--url", url(server), "--ask", "Through the proxy?", "--wait-answered", "--timeout", "30s"],
      stdin: "", environment: ["http_proxy": "http://\(proxy.url)"])
    let created = try await qna.waitFor("created")
    let id = try #require(created["id"])
    #expect(try httpRequest("POST", port: server.port, path: "/\(id)/answer").status == 303)
    _ = try await qna.waitFor("answered")
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    #expect(proxy.log.contains("CONNECT 127.0.0.1:\(server.port) HTTP/1.1"), "\(proxy.log)")
  }

  @Test func stdinLinesAreQuestionsInOrderAndExitAfterSendLeavesThemStored() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let qna = try HeadlessProcess(
      ["--url", url(server), "--exit-after-send", "--text"], stdin: "first\n\n  second  \nthird\n")
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    let sent = qna.events.filter { $0.name == "sent" }.compactMap { $0["content"] }
    #expect(sent == ["first", "second", "third"])
    #expect(!qna.events.contains { $0.name == "notice" && $0["level"] == "error" }, "blank line")
    let stored = try httpRequest("GET", port: server.port, path: "/api/questions")
    for content in ["first", "second", "third"] { #expect(stored.body.contains("\"\(content)\"")) }
  }

  @Test func aRefusedQuestionPrintsFailedWithTheServersReasonAndExitsOne() async throws {
    let server = try PeerProcess(script: "reference_backend.py", arguments: ["--reject", "spam"])
    let qna = try HeadlessProcess(
      ["--url", url(server), "--ask", "buy spam", "--wait-answered", "--timeout", "30s"], stdin: "")
    // This back end cannot say whether a refusal is final: retried with backoff first.
    let failed = try await qna.waitFor("failed", seconds: 20)
    #expect(failed["reason"] == "Something went wrong creating the question.")
    #expect(await qna.exitStatus() == 1)
    #expect(qna.events.filter { $0.name == "waiting" }.count == 3)
    #expect(qna.stderr.contains("question failed: buy spam: Something went wrong"))
  }

  @Test func unansweredQuestionsTimeOutWithExitFiveAndACount() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let qna = try HeadlessProcess(
      ["--url", url(server), "--ask", "a", "--ask", "b", "--wait-answered", "--timeout", "1s"],
      stdin: "")
    #expect(await qna.exitStatus() == 5)
    #expect(qna.stderr == "qna: timed out after 1s: 2 of 2 questions not answered\n")
  }

  @Test func aDeadServerIsReportedAndTheQuestionStaysQueued() async throws {
    // A port nothing listens on: take a free one from a peer, then stop the peer.
    let gone = try PeerProcess(script: "reference_backend.py")
    let port = gone.port
    gone.stop()
    let once = try HeadlessProcess(
      ["--url", "ws://127.0.0.1:\(port)/socket", "--no-reconnect", "--ask", "hello?"], stdin: "")
    #expect(await once.exitStatus() == 1)
    #expect(once.stderr.contains("connection ended:") && once.stderr.contains("refused"))
    #expect(once.events.contains { $0.name == "queued" && $0["content"] == "hello?" })

    let retrying = try HeadlessProcess(
      [
        "--url", "ws://127.0.0.1:\(port)/socket", "--ask", "hello?", "--exit-after-send",
        "--timeout", "2s",
      ], stdin: "")
    #expect(await retrying.exitStatus() == 5)
    let disconnect = try await retrying.waitFor("disconnected")
    #expect(disconnect.fields["retryIn"] is Double)
    #expect(retrying.stderr.contains("1 of 1 questions not stored by the server"))
  }

  @Test func aDroppedConnectionReconnectsWithANewIDAndKeepsAsking() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let qna = try HeadlessProcess(["--url", url(server), "--ping-interval", "0"])
    let first = try await qna.waitFor("handshake")
    qna.write("before the drop")
    _ = try await qna.waitFor("created")
    _ = try httpRequest("POST", port: server.port, path: "/control/drop")
    let drop = try await qna.waitFor("disconnected")
    #expect(drop["reason"]?.contains("1006") == true || drop["reason"]?.isEmpty == false)
    let second = try await qna.waitFor("handshake", occurrence: 1)
    #expect(second["connectionId"] != first["connectionId"])
    qna.write("after the drop")
    let created = try await qna.waitFor("created", occurrence: 1)
    #expect(created["content"] == "after the drop")
    qna.interrupt()
    #expect(await qna.exitStatus() == 0)
  }

  @Test func hostileAndMalformedServerMessagesAreIgnoredAndEscaped() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let qna = try HeadlessProcess(["--url", url(server), "--verbose", "--ping-interval", "0"])
    _ = try await qna.waitFor("handshake")
    for body in [
      "not json", #"{"type":"launchRockets"}"#, #"{"type":"questionAnswer"}"#, "\u{FF}\u{FE}",
      #"{"type":"questionAnswer","questionId":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6"}"#,
      #"{"type":"questionResponse","success":true,"message":"\u001b[2J\u0007","id":"7C0B5D0E-1B2C-4D3E-8F90-A1B2C3D4E5F6","content":"evil\r\n\u001b]0;x\u0007 \u2028","createdAt":1}"#,
    ] {
      _ = try httpRequest("POST", port: server.port, path: "/control/send", body: body)
    }
    let created = try await qna.waitFor("created")
    #expect(created["content"] == "evil\r\n\u{1B}]0;x\u{07} \u{2028}")
    #expect(created.raw.contains(#"evil\r\n\u001b]0;x\u0007 \u2028"#))
    #expect(created.raw.allSatisfy { $0.asciiValue.map { $0 >= 0x20 } ?? true })
    // Early answer, remembered: the question arrives answered.
    _ = try await qna.waitFor("answered")
    // Still connected and usable.
    qna.write("still here")
    let mine = try await qna.waitFor("created", occurrence: 1)
    #expect(mine["content"] == "still here")
    #expect(!qna.events.contains { $0.name == "disconnected" })
    qna.interrupt()
    #expect(await qna.exitStatus() == 0)
    #expect(qna.stderr.contains("unknown message type \"launchRockets\""))
    #expect(qna.stderr.contains("malformed message"))
  }

  @Test func anOverLongQuestionIsRefusedLocallyWithExitOne() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let qna = try HeadlessProcess(
      [
        "--url", url(server), "--max-length", "10", "--ask", "far too long for ten",
        "--wait-answered",
      ],
      stdin: "")
    #expect(await qna.exitStatus() == 1)
    #expect(qna.stderr.contains("question refused: far too long"))
    let notice = try await qna.waitFor("notice")
    #expect(notice["text"] == "Too long: 20 characters, at most 10.")
  }

  @Test func badArgumentsAreUsageErrorsBeforeConnecting() async throws {
    let badURL = try HeadlessProcess(["--url", "http://example.com/socket"], stdin: "")
    #expect(await badURL.exitStatus() == 64)
    #expect(badURL.stderr.hasPrefix("qna: ") && badURL.events.isEmpty)
    let badTimeout = try HeadlessProcess(["--timeout", "soon"], stdin: "")
    #expect(await badTimeout.exitStatus() == 64)
    // A backoff of 0 reconnected some 1,500 times a second; timeouts of 0 fail every attempt.
    for (option, value, words) in [
      ("--max-backoff", "0", "--max-backoff must be at least 100ms"),
      ("--ping-timeout", "0s", "--ping-timeout must be at least 1ms"),
      ("--connect-timeout", "0", "--connect-timeout must be at least 1ms"),
    ] {
      let qna = try HeadlessProcess([option, value], stdin: "")
      #expect(await qna.exitStatus() == 64, "\(option)")
      #expect(qna.stderr.contains(words), "\(qna.stderr)")
    }
  }
}

@Suite("qna --headless question sources", .serialized)
struct HeadlessQuestionSourceTests {
  @Test func askThenStdinWithTheStdinFlag() async throws {
    let server = try PeerProcess(script: "reference_backend.py")
    let qna = try HeadlessProcess(
      [
        "--url", "ws://127.0.0.1:\(server.port)/socket", "--ask", "from --ask", "--stdin",
        "--exit-after-send",
      ], stdin: "from stdin\n")
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    #expect(
      qna.events.filter { $0.name == "sent" }.compactMap { $0["content"] } == [
        "from --ask", "from stdin",
      ])
  }
}
