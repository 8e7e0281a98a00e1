import Foundation
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import RFC6455
import Testing
import WebSocketClient

@Suite("qna-server: the attendee socket", .serialized)
struct SocketProtocolTests {
  @Test func handshakeThenQuestionThenResponseAllInBinaryFrames() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    try await attendee.ask("Awesome question! / ü", as: id)
    let response = try await attendee.response()
    #expect(response.success)
    #expect(response.message == "Question created. We will answer it as soon as possible :]")
    #expect(response.content == "Awesome question! / ü")
    #expect(response.answered == false)
    #expect(response.id != nil && response.createdAt != nil)
    // Every server message is a binary frame of Foundation-default JSON.
    let frames = attendee.events.compactMap { event -> WebSocketMessage? in
      if case .message(let message) = event { message } else { nil }
    }
    #expect(frames.count == 2 && frames.allSatisfy { $0.kind == .binary })
    let raw = String(decoding: frames[1].data, as: UTF8.self)
    #expect(raw.contains(#""type":"questionResponse""#) && raw.contains(#"\/ ü"#))
    #expect(raw.contains(#""createdAt":"#) && !raw.contains(#""createdAt":""#), "a number")
    let stored = try await server.http("GET", "/api/questions")
    #expect(stored.body.contains(response.id!.uuidString))
    await attendee.close()
    await server.stop()
  }

  @Test func serverPingsAreAnsweredAndKeepTheSocket() async throws {
    let server = try await ServerUnderTest { $0.pingInterval = .milliseconds(100) }
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    try await Task.sleep(for: .milliseconds(600))
    try await attendee.ask("after a few pings", as: id)
    #expect(try await attendee.response().success)
    #expect(!attendee.events.contains { if case .disconnected = $0 { true } else { false } })
    await attendee.close()
    await server.stop()
  }

  @Test func textFramesAreAcceptedToo() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    try await attendee.ask("as text", as: try await attendee.handshake(), text: true)
    #expect(try await attendee.response().success)
    await attendee.close()
    await server.stop()
  }

  @Test func eachConnectionGetsItsOwnID() async throws {
    let server = try await ServerUnderTest()
    let first = try Attendee(server.socketURL)
    let second = try Attendee(server.socketURL)
    #expect(try await first.handshake() != second.handshake())
    await first.close()
    await second.close()
    await server.stop()
  }

  @Test(
    "Invalid questions get a failure response naming the reason",
    arguments: [
      ("   \n ", "The question is empty."),
      (String(repeating: "x", count: 11), "The question is too long: at most 10 characters."),
    ])
  func invalidQuestionsFail(content: String, reason: String) async throws {
    let server = try await ServerUnderTest { $0.maxQuestionLength = 10 }
    let attendee = try Attendee(server.socketURL)
    try await attendee.ask(content, as: try await attendee.handshake())
    let response = try await attendee.response()
    #expect(!response.success)
    #expect(response.message == reason)
    #expect(response.content == content && response.id == nil)
    #expect(try await server.http("GET", "/api/questions").body == "[]")
    await attendee.close()
    await server.stop()
  }

  @Test func aQuestionUnderAnotherConnectionsIDFails() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    _ = try await attendee.handshake()
    try await attendee.ask("impostor", as: UUID())
    let response = try await attendee.response()
    #expect(!response.success && response.message.contains("not this connection's id"))
    await attendee.close()
    await server.stop()
  }

  @Test func theRateLimitAnswersWithFailuresNotADisconnect() async throws {
    // A small limit with a slow refill makes the refusals exact; the default limit is tested
    // in DeliveryTests.
    let server = try await ServerUnderTest {
      $0.rateLimit = 3
      $0.rateWindow = .seconds(60)
    }
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    for index in 0..<5 { try await attendee.ask("q\(index)", as: id) }
    let responses = try await (0..<5).asyncMap { try await attendee.response(occurrence: $0) }
    #expect(responses.map(\.success) == [true, true, true, false, false])
    #expect(responses[3].message.contains("Too many questions"))
    #expect(!attendee.events.contains { if case .disconnected = $0 { true } else { false } })
    await attendee.close()
    await server.stop()
  }

  @Test func malformedUnknownAndGarbageMessagesGetNoReplyAndTheSocketStaysUp() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    for raw in [
      "not json", #"{"type":"launchRockets"}"#, #"{"type":"newQuestion"}"#, "[]",
      #"{"type":"questionAnswer","questionId":"\#(UUID())"}"#,
    ] {
      try await attendee.send(raw: raw)
    }
    try await attendee.client.send(binary: [0xFF, 0x00, 0xFE, 0x7B])
    try await attendee.ask("still works", as: id)
    let response = try await attendee.response()
    #expect(response.success && response.content == "still works")
    #expect(attendee.messages.count == 2, "handshake and one response, nothing else")
    await attendee.close()
    await server.stop()
  }

  @Test func aMessageOverTheLimitClosesWith1009() async throws {
    let server = try await ServerUnderTest { $0.maxMessageSize = 1024 }
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    try await attendee.ask(String(repeating: "x", count: 2000), as: id)
    guard case .closed(let status) = try await attendee.disconnect() else {
      Issue.record("expected a close frame")
      return
    }
    #expect(status.code == .messageTooBig)
    await server.stop()
  }

  @Test func connectionsOverTheLimitAreClosedWith1013() async throws {
    let server = try await ServerUnderTest { $0.maxConnections = 1 }
    let first = try Attendee(server.socketURL)
    _ = try await first.handshake()
    let second = try Attendee(server.socketURL)
    guard case .closed(let status) = try await second.disconnect() else {
      Issue.record("expected a close frame")
      return
    }
    #expect(status.code == CloseCode(1013) && status.reason == "too many connections")
    await first.close()
    await server.stop()
  }

  @Test func aRepeatedTokenGetsTheOriginalResponseNotASecondRow() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let token = UUID()
    try await attendee.ask("once", as: id, token: token)
    try await attendee.ask("once", as: id, token: token)
    let first = try await attendee.response()
    let again = try await attendee.response(occurrence: 1)
    #expect(first.id == again.id && first.token == token && again.token == token)
    let rows = try await server.http("GET", "/api/questions").body
    #expect(rows.components(separatedBy: "\"once\"").count == 2, "one row")
    await attendee.close()
    await server.stop()
  }

  @Test func aResendOfAStoredQuestionIsNotCountedByTheRateLimit() async throws {
    // A limit of one shows that the resend did not take the only token.
    let server = try await ServerUnderTest {
      $0.rateLimit = 1
      $0.rateWindow = .seconds(60)
    }
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let token = UUID()
    try await attendee.ask("first", as: id, token: token)
    try await attendee.ask("first", as: id, token: token)
    try await attendee.ask("second", as: id, token: UUID())
    let responses = try await (0..<3).asyncMap { try await attendee.response(occurrence: $0) }
    #expect(responses.map(\.success) == [true, true, false])
    await attendee.close()
    await server.stop()
  }

  @Test func withoutExtensionsTokensAreIgnoredAsByExistingBackEnds() async throws {
    let server = try await ServerUnderTest { $0.extensions = false }
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let token = UUID()
    try await attendee.ask("twice", as: id, token: token)
    try await attendee.ask("twice", as: id, token: token)
    let first = try await attendee.response()
    let again = try await attendee.response(occurrence: 1)
    #expect(first.token == nil && first.id != again.id)
    await attendee.close()
    await server.stop()
  }
}

extension Sequence {
  func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
    var results: [T] = []
    for element in self { results.append(try await transform(element)) }
    return results
  }
}
