import Foundation
import TestSupport
import Testing

/// Every question delivered once with the server's default settings: the built
/// `qna --headless` against the built `qna-server`, as processes, with no limit raised
/// unless a test says why.
@Suite("Nothing lost under refusals", .serialized)
struct RefusalEndToEndTests {
  static func asks(_ count: Int, _ prefix: String) -> [String] {
    (1...count).flatMap { ["--ask", "\(prefix) \($0)"] }
  }

  static func contents(_ server: QnAServerProcess) async throws -> [String] {
    try await server.questions().compactMap { $0["content"] as? String }
  }

  @Test func burstsOfSevenAndFiftyAreStoredOnceAndNoneFails() async throws {
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ChaosTests.temporaryDatabase(), "--mock", "--auto-answer-after",
      "0.1s",
    ])
    defer { server.stop() }
    let sent = try HeadlessProcess(
      ["--url", server.url, "--exit-after-send", "--timeout", "60s"] + Self.asks(7, "sent"))
    let answered = try HeadlessProcess(
      ["--url", server.url, "--wait-answered", "--timeout", "60s"] + Self.asks(7, "seven"))
    let fifty = try HeadlessProcess(
      ["--url", server.url, "--wait-answered", "--timeout", "90s"] + Self.asks(50, "fifty"))
    for client in [sent, answered, fifty] {
      #expect(await client.exitStatus() == 0, "\(client.stderr)")
      #expect(!client.events.contains { $0.name == "failed" })
    }
    #expect(fifty.events.filter { $0.name == "answered" }.count == 50)
    let stored = try await Self.contents(server)
    let expected =
      ["sent", "seven"].flatMap { p in (1...7).map { "\(p) \($0)" } }
      + (1...50).map { "fifty \($0)" }
    #expect(stored.sorted() == expected.sorted(), "each once")
    let retried = fifty.events.filter { $0.name == "waiting" }.count
    print("burst of 50: \(stored.count) stored, \(retried) refusals retried, none failed")
    #expect(retried > 0, "the default limit was met")
  }

  @Test func aBacklogOfThirtyKeptOverARestartIsDeliveredOnce() async throws {
    let state = HeadlessProcess.freshDirectory()
    // A port nobody listens on, then a server on it.
    let port = try await QnAServerProcess.unusedPort()
    let url = "ws://127.0.0.1:\(port)/socket"
    let offline = try HeadlessProcess(
      ["--url", url, "--max-backoff", "1s"], stdin: nil, stateDirectory: state)
    for number in 1...30 { offline.write("backlog \(number)") }
    _ = try await offline.waitFor("queued", occurrence: 29)
    offline.interrupt()
    #expect(await offline.exitStatus() == 0)

    let server = try await QnAServerProcess([
      "--port", "\(port)", "--db", ChaosTests.temporaryDatabase(),
    ])
    defer { server.stop() }
    let online = try HeadlessProcess(
      ["--url", url, "--exit-after-send", "--no-stdin", "--timeout", "60s"], stateDirectory: state)
    #expect(await online.exitStatus() == 0, "\(online.stderr)")
    let stored = try await Self.contents(server)
    #expect(stored.sorted() == (1...30).map { "backlog \($0)" }.sorted())
    #expect(
      online.events.filter { $0.name == "created" }.compactMap { $0["content"] }
        == (1...30).map { "backlog \($0)" }, "in typed order")
  }

  @Test func aPermanentRefusalFailsIsKeptAndExitsOneUntilRetriedOrDiscarded() async throws {
    let state = HeadlessProcess.freshDirectory()
    let strict = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--mock", "--reject", "spam",
    ])
    let port = strict.port
    let url = strict.url
    let first = try HeadlessProcess(
      [
        "--url", url, "--exit-after-send", "--timeout", "20s", "--ask", "buy spam", "--ask", "fine",
      ],
      stateDirectory: state)
    #expect(await first.exitStatus() == 1)
    #expect(first.stderr.contains("qna: question failed: buy spam: Something went wrong"))
    #expect(first.events.filter { $0.name == "failed" }.count == 1, "at once: final")
    #expect(try await Self.contents(strict) == ["fine"])

    // The next run still has it, refused: it fails again without being sent.
    let again = try HeadlessProcess(
      ["--url", url, "--exit-after-send", "--no-stdin", "--timeout", "20s"], stateDirectory: state)
    #expect(await again.exitStatus() == 1)
    #expect(!again.events.contains { $0.name == "sent" })
    strict.stop()

    // Asked again on request, where the server takes it.
    let lenient = try await QnAServerProcess(["--port", "\(port)", "--db", ":memory:"])
    defer { lenient.stop() }
    let retried = try HeadlessProcess(
      ["--url", url, "--exit-after-send", "--no-stdin", "--retry-failed", "--timeout", "20s"],
      stateDirectory: state)
    #expect(await retried.exitStatus() == 0, "\(retried.stderr)")
    #expect(try await Self.contents(lenient) == ["buy spam"])

    // Delivered, it left the file.
    let nothingLeft = try HeadlessProcess(
      ["--url", url, "--exit-after-send", "--no-stdin", "--timeout", "20s"], stateDirectory: state)
    #expect(await nothingLeft.exitStatus() == 0)
    #expect(!nothingLeft.events.contains { $0.name == "failed" })
  }

  @Test func aDiscardedRefusalLeavesThePendingFile() async throws {
    let state = HeadlessProcess.freshDirectory()
    let strict = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--mock", "--reject", "spam",
    ])
    defer { strict.stop() }
    let first = try HeadlessProcess(
      ["--url", strict.url, "--exit-after-send", "--timeout", "20s", "--ask", "spam"],
      stateDirectory: state)
    #expect(await first.exitStatus() == 1)
    let dropped = try HeadlessProcess(
      ["--url", strict.url, "--exit-after-send", "--no-stdin", "--discard-failed"],
      stateDirectory: state)
    #expect(await dropped.exitStatus() == 0)
    #expect(dropped.events.contains { $0.name == "discarded" && $0["content"] == "spam" })
    let files = try FileManager.default.contentsOfDirectory(
      atPath: state.appendingPathComponent("qna").path)
    #expect(!files.contains { $0.hasSuffix(".json") }, "\(files)")
  }

  @Test func aServerRestartedOnAnEmptyDatabaseGetsBackWhatItLost() async throws {
    let first = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    let port = first.port
    let qna = try HeadlessProcess(
      [
        "--url", first.url, "--max-backoff", "1s", "--wait-answered", "--timeout", "40s",
        "--ask", "one", "--ask", "two", "--ask", "three",
      ])
    _ = try await qna.waitFor("created", occurrence: 2)
    await first.kill9()
    let second = try await QnAServerProcess(["--port", "\(port)", "--db", ":memory:"])
    defer { second.stop() }
    // The resume names three ids the new server never saw; the client asks them again.
    _ = try await qna.waitFor("created", occurrence: 5, seconds: 20)
    let stored = try await second.questions()
    #expect(stored.compactMap { $0["content"] as? String }.sorted() == ["one", "three", "two"])
    for question in stored {
      let id = try #require(question["id"] as? String)
      #expect(try await second.http("POST", "/api/questions/\(id)/answer").status == 200)
    }
    #expect(await qna.exitStatus() == 0, "\(qna.stderr)")
    #expect(qna.events.contains { $0.name == "notice" && $0["text"]?.contains("lost 3") == true })
  }

  @Test func aThousandQuestionsResumeInSeveralMessagesAndTheirAnswersArrive() async throws {
    let database = ChaosTests.temporaryDatabase()
    // Storing 1,000 questions under the default limit would take over eight minutes; this
    // test is about the resume that follows. The default limit is tested above (bursts of 7
    // and 50, a backlog of 30 over a restart) and in DeliveryTests.
    let limits = ["--rate-limit", "100000"]
    let first = try await QnAServerProcess(["--port", "0", "--db", database] + limits)
    let port = first.port
    let questions = (1...1000).map { "question \($0)" }.joined(separator: "\n") + "\n"
    let qna = try HeadlessProcess(
      ["--url", first.url, "--max-backoff", "1s", "--wait-answered", "--timeout", "120s"],
      stdin: questions)
    _ = try await qna.waitFor("created", occurrence: 999, seconds: 60)
    first.stop()
    _ = await onOwnThread { first.child.wait() }
    // Answered while the client is away: only its resume can tell it.
    let update = try ChildProcess(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
          + "c.execute('UPDATE question SET answered=1'); c.commit()", database,
      ])
    #expect(await onOwnThread { update.wait() } == 0)
    let second = try await QnAServerProcess(["--port", "\(port)", "--db", database] + limits)
    defer { second.stop() }
    #expect(await qna.exitStatus() == 0, "\(qna.stderr.suffix(2000))")
    #expect(qna.events.filter { $0.name == "answered" }.count == 1000)
    #expect(!qna.events.contains { $0["reason"]?.contains("1009") == true }, "no 1009")
  }
}
