import Foundation
import QnA
import TestSupport
import Testing

@Suite("QnAState against a hostile server: bounded, and nothing lost")
struct HostileServerTests {
  @Test func aHundredThousandUnknownIDsDoNotGrowTheStateWithoutBound() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("mine", 1)
    for number in 0..<100_000 {
      let id = uuid(number, group: 0xBAD)
      _ = harness.state.apply(
        .received(
          .questionResponse(
            QuestionResponse(success: true, message: "x", id: id, content: "pushed \(number)"))))
      _ = harness.state.apply(
        .received(
          .questionResponse(
            QuestionResponse(success: false, message: "no", id: uuid(number, group: 0xFA1)))))
      _ = harness.state.apply(
        .received(.questionAnswer(QuestionAnswer(questionId: uuid(number, group: 0xEA2)))))
    }
    #expect(harness.state.counts.asked <= QnAState.maxForeignQuestions + 1)
    #expect(harness.state.failedServerIDs.count <= QnAState.maxEarlyAnswers)
    #expect(harness.state.earlyAnswers.count <= QnAState.maxEarlyAnswers)
    #expect(harness.status(1) == .sending, "the attendee's own question is untouched")
    #expect(harness.respond("mine", id: 1, token: 1).changeNames.contains("created"))
  }

  @Test(arguments: [1e300, -1e300])
  func anAbsurdCreatedAtIsClampedToACalendarsRange(seconds: Double) throws {
    let json =
      #"{"type":"questionResponse","success":true,"message":"ok","#
      + #""id":"7C0B5D0E-0000-4000-8000-000000000001","content":"x","createdAt":\#(seconds)}"#
    guard case .questionResponse(let response) = try WireCodec().decode(Array(json.utf8)) else {
      Issue.record("not a response")
      return
    }
    let date = try #require(response.createdAt)
    let year = Calendar(identifier: .gregorian).component(.year, from: date)
    #expect(seconds > 0 ? year == 9999 : year == 1)
  }

  @Test func aSecondHandshakeOnTheSameConnectionLosesAndRepeatsNothing() {
    var harness = Harness()
    harness.connectToProjectServer(firstConnection)
    harness.ask("in flight", 1)
    harness.apply(.disconnected(reason: "gone", retry: nil))
    harness.ask("queued", 2)
    harness.connectToProjectServer(firstConnection)
    let again = harness.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: projectExtensions))))
    #expect(again.sent.isEmpty, "what is on the wire is not sent twice")
    #expect(harness.status(1) == .sending && harness.status(2) == .sending)
    harness.respond("in flight", id: 11, token: 1)
    harness.respond("queued", id: 12, token: 2)
    #expect(harness.state.counts == QuestionCounts(asked: 2))
  }
}
