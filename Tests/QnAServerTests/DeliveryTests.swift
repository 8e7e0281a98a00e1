import Foundation
import GRDB
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import TestSupport
import Testing
import WebSocketClient

/// Nothing lost on the server's side: refusals say when to retry, writes are durable before
/// they are acknowledged, and a resume names what the server no longer has.
@Suite("qna-server: delivery with its default settings", .serialized)
struct DeliveryTests {
  @Test func theDefaultLimitRefusesPastItsBurstWithRetryAfterAndTakesTheRetry() async throws {
    // The defaults a user gets: no limit is changed here.
    let defaults = ServerConfiguration()
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let burst = defaults.rateLimit + 3
    for index in 0..<burst { try await attendee.ask("q\(index)", as: id, token: UUID()) }
    let responses = try await (0..<burst).asyncMap { try await attendee.response(occurrence: $0) }
    let accepted = responses.prefix(defaults.rateLimit).filter(\.success).count
    #expect(accepted == defaults.rateLimit)
    let refused = Array(responses.dropFirst(defaults.rateLimit))
    let refusedRightly = refused.filter {
      !$0.success && $0.message == "Too many questions at once."
    }
    #expect(refusedRightly.count == refused.count)
    let perQuestion = defaults.rateWindow / .seconds(1) / Double(defaults.rateLimit)
    for response in refused {
      let wait = try #require(response.retryAfter)
      #expect(wait > 0 && wait <= perQuestion, "one question's refill at most: \(wait)")
    }
    // After the time it said, the same question is taken.
    try await Task.sleep(for: .seconds(try #require(refused[0].retryAfter)))
    try await attendee.ask("q\(defaults.rateLimit)", as: id, token: refused[0].token)
    #expect(try await attendee.response(occurrence: burst).success)
    #expect(!attendee.events.contains { if case .disconnected = $0 { true } else { false } })
    await attendee.close()
    await server.stop()
  }

  @Test func theHandshakeAnnouncesRetryAfterAndNoExtensionsMeansNone() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let handshake = try await attendee.waitForMessage("handshake")
    #expect(
      handshake
        == .handshake(
          Handshake(
            id: try await attendee.handshake(),
            extensions: [
              ProtocolExtension.token, ProtocolExtension.resume, ProtocolExtension.retryAfter,
              ProtocolExtension.room, ProtocolExtension.lifecycle, ProtocolExtension.sessions,
              ProtocolExtension.identity, ProtocolExtension.audience,
              ProtocolExtension.sessionState, ProtocolExtension.announcements,
              ProtocolExtension.queue, ProtocolExtension.labels, ProtocolExtension.tickets,
              ProtocolExtension.polls,
              ProtocolExtension.counts,
              ProtocolExtension.identityWork,
            ], maxMessageSize: 16 * 1024)))
    await attendee.close()
    await server.stop()

    // Without extensions a refusal carries no retryAfter, as the existing back ends. (A
    // limit of 1 makes the refusal come at the second question.)
    let plain = try await ServerUnderTest {
      $0.extensions = false
      $0.rateLimit = 1
    }
    let old = try Attendee(plain.socketURL)
    let id = try await old.handshake()
    try await old.ask("one", as: id)
    try await old.ask("two", as: id)
    let refusal = try await old.response(occurrence: 1)
    #expect(!refusal.success && refusal.retryAfter == nil)
    await old.close()
    await plain.stop()
  }

  @Test func theCommandLineFallsBackToTheLibrarysDefaults() async throws {
    let help = try ChildProcess(QnAServerProcess.path, ["--help"])
    let text = String(
      decoding: await onOwnThread { help.stdout.readDataToEndOfFile() }, as: UTF8.self)
    _ = await onOwnThread { help.wait() }
    let defaults = ServerConfiguration()
    let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flat.contains("(default \(defaults.rateLimit))"))
    #expect(flat.contains("(default \(Int(defaults.rateWindow / .seconds(1)))s)"))
  }

  @Test func aBusyDatabaseRefusesWithRetryAfterAndNoAnswerGoesOutBeforeItIsStored()
    async throws
  {
    let path = Self.temporaryDatabase()
    let server = try await ServerUnderTest { $0.database = path }
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    try await attendee.ask("stored before the lock", as: id, token: UUID())
    let stored = try #require(try await attendee.response().id)

    // Another process's write lock, as `sqlite3` or a backup tool would hold it.
    let other = try DatabaseQueue(path: path)
    let locked = AsyncStream<Void>.makeStream()
    let release = AsyncStream<Void>.makeStream()
    let holder = Task.detached {
      try other.inDatabase { db in
        try db.execute(sql: "BEGIN EXCLUSIVE")
        locked.continuation.yield()
        // Held until the test says so.
        let semaphore = DispatchSemaphore(value: 0)
        Task {
          for await _ in release.stream { break }
          semaphore.signal()
        }
        semaphore.wait()
        try db.execute(sql: "COMMIT")
      }
    }
    var lockedIterator = locked.stream.makeAsyncIterator()
    _ = await lockedIterator.next()

    let token = UUID()
    try await attendee.ask("asked while locked", as: id, token: token)
    let refusal = try await attendee.response(occurrence: 1)
    #expect(!refusal.success && refusal.token == token)
    #expect(refusal.retryAfter == 1, "the client tries again, it does not fail the question")
    let answer = try await server.http("POST", "/api/questions/\(stored)/answer")
    #expect(answer.status == 500)
    #expect(
      !attendee.messages.contains {
        if case .success(.questionAnswer) = $0 { true } else { false }
      },
      "no answer before it is stored")

    release.continuation.yield()
    try await holder.value
    try await attendee.ask("asked while locked", as: id, token: token)
    #expect(try await attendee.response(occurrence: 2).success)
    #expect(try await server.http("POST", "/api/questions/\(stored)/answer").status == 200)
    _ = try await attendee.waitForMessage("questionAnswer") {
      $0 == .questionAnswer(QuestionAnswer(questionId: stored))
    }
    await attendee.close()
    await server.stop()
  }

  @Test func aResumeNamingLostQuestionsIsAnsweredWithResumedNamingThem() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    // As qna does: the attendee joins first, which is what lets it claim its ids later.
    try await attendee.send(.join(Join(id: id, attendee: UUID())))
    let token = UUID()
    try await attendee.ask("kept", as: id, token: token)
    let kept = try #require(try await attendee.response().id)
    let lostID = UUID()
    let lostToken = UUID()
    let resume = Resume(id: id, questions: [kept, lostID], tokens: [lostToken])
    try await attendee.client.send(binary: WireCodec().encode(.resume(resume)))
    let restored = try await attendee.response(occurrence: 1)
    #expect(restored.id == kept && restored.message == "Question restored.")
    let reply = try await attendee.waitForMessage("resumed") {
      if case .resumed = $0 { true } else { false }
    }
    #expect(reply == .resumed(Resumed(id: id, missing: [lostID, lostToken])))
    await attendee.close()
    await server.stop()
  }

  @Test func resendsAndResumesArePacedNotRefusedAndNeverCloseTheSocket() async throws {
    // The default lookup budget: a flood of resumes is slowed, each still answered.
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let perMessage = 400
    let messages = 5
    let started = ContinuousClock.now
    for _ in 0..<messages {
      let resume = Resume(id: id, questions: (0..<perMessage).map { _ in UUID() })
      try await attendee.client.send(binary: WireCodec().encode(.resume(resume)))
    }
    for index in 0..<messages {
      _ = try await attendee.waitForMessage("resumed", occurrence: index) {
        if case .resumed(let reply) = $0 { reply.missing.count == perMessage } else { false }
      }
    }
    let elapsed = ContinuousClock.now - started
    let budget = Double(ServerConfiguration().lookupRate)
    let paced = Double(messages * perMessage) / budget - 1
    #expect(elapsed >= .seconds(paced * 0.9), "paced past the budget: \(elapsed)")
    #expect(!attendee.events.contains { if case .disconnected = $0 { true } else { false } })
    await attendee.close()
    await server.stop()
  }

  static func temporaryDatabase() -> String {
    HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
  }
}
