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

@Suite("qna-server --mock: controls and fault injection", .serialized)
struct MockControlTests {
  func mockServer(_ mock: MockConfiguration = MockConfiguration()) async throws -> ServerUnderTest {
    try await ServerUnderTest { $0.mock = mock }
  }

  @Test func controlsExistOnlyWithMock() async throws {
    let plain = try await ServerUnderTest()
    #expect(try await plain.http("POST", "/control/drop").status == 404)
    #expect(try await plain.http("GET", "/control/connections").status == 404)
    await plain.stop()
  }

  @Test func connectionsAreListed() async throws {
    let server = try await mockServer()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let list = try await server.http("GET", "/control/connections")
    #expect(list.status == 200 && list.body.contains(id.uuidString))
    await attendee.close()
    await server.stop()
  }

  @Test func dropEndsSocketsWithoutACloseFrame() async throws {
    let server = try await mockServer()
    let attendee = try Attendee(server.socketURL)
    _ = try await attendee.handshake()
    let result = try await server.http("POST", "/control/drop")
    #expect(result.body.contains(#""affected":1"#))
    guard case .closed(let status) = try await attendee.disconnect() else {
      Issue.record("expected a closed connection")
      return
    }
    #expect(status.code == .abnormalClosure && !status.wasClean)
    await server.stop()
  }

  @Test func closeSendsTheCodeAndReasonAsked() async throws {
    let server = try await mockServer()
    let attendee = try Attendee(server.socketURL)
    _ = try await attendee.handshake()
    #expect(try await server.http("POST", "/control/close?code=4000&reason=bye").status == 200)
    guard case .closed(let status) = try await attendee.disconnect() else {
      Issue.record("expected a close frame")
      return
    }
    #expect(status.code == CloseCode(4000) && status.reason == "bye" && status.wasClean)
    #expect(try await server.http("POST", "/control/close?code=1006").status == 400)
    await server.stop()
  }

  @Test func stallLooksLikeAHalfOpenLinkToTheClient() async throws {
    let server = try await mockServer()
    let attendee = try Attendee(
      server.socketURL,
      configuration: ClientConfiguration(
        pingInterval: .milliseconds(200), pingTimeout: .milliseconds(600)))
    let id = try await attendee.handshake()
    try await attendee.waitFor("a first pong") { if case .roundTrip = $0 { true } else { false } }
    #expect(
      try await server.http("POST", "/control/stall?seconds=5&id=\(id.uuidString)").status == 200)
    #expect(try await server.http("POST", "/control/stall?seconds=-1").status == 400)
    let reason = try await attendee.disconnect()
    guard case .pingTimeout = reason else {
      Issue.record("expected a ping timeout, got \(reason)")
      return
    }
    await server.stop()
  }

  @Test func sendDeliversTheBodyAsIsToOneOrAll() async throws {
    let server = try await mockServer()
    let one = try Attendee(server.socketURL)
    let other = try Attendee(server.socketURL)
    let id = try await one.handshake()
    _ = try await other.handshake()
    _ = try await server.http("POST", "/control/send?id=\(id.uuidString)", body: "{not json")
    _ = try await server.http(
      "POST", "/control/send", body: #"{"type":"questionAnswer","questionId":"\#(id)"}"#)
    try await one.waitFor("the raw message") { event in
      if case .message(let message) = event {
        message.data == Array("{not json".utf8)
      } else {
        false
      }
    }
    _ = try await other.waitForMessage("the broadcast") {
      if case .questionAnswer = $0 { true } else { false }
    }
    #expect(
      !other.events.contains { event in
        if case .message(let message) = event {
          message.data == Array("{not json".utf8)
        } else {
          false
        }
      })
    #expect(try await server.http("POST", "/control/send?id=nope").status == 400)
    await one.close()
    await other.close()
    await server.stop()
  }

  @Test func autoAnswerRejectAndLatency() async throws {
    let server = try await mockServer(
      MockConfiguration(
        autoAnswerAfter: .milliseconds(100) ... .milliseconds(100), reject: "^spam",
        latency: .milliseconds(150)))
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let asked = ContinuousClock.now
    try await attendee.ask("spam and eggs", as: id)
    let refused = try await attendee.response()
    #expect(ContinuousClock.now - asked >= .milliseconds(150), "every message waits the latency")
    #expect(!refused.success && refused.message == "Something went wrong creating the question.")
    try await attendee.ask("eggs", as: id)
    let created = try await attendee.response(occurrence: 1)
    let answer = try await attendee.waitForMessage("the automatic answer") {
      if case .questionAnswer = $0 { true } else { false }
    }
    #expect(answer == .questionAnswer(QuestionAnswer(questionId: try #require(created.id))))
    await attendee.close()
    await server.stop()
  }
}
