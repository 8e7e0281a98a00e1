import Foundation
import QnA
import TestSupport
import Testing

@Suite("QnAState: refusals that may be retried are retried, final ones kept")
struct RefusalTests {
  /// A burst of five on a server that stores two and refuses the rest with `retryAfter`.
  static func burstMeetingARateLimit() -> Harness {
    var harness = Harness()
    harness.connectToProjectServer()
    for number in 1...5 { harness.ask("q\(number)", number) }
    harness.respond("q1", id: 11, token: 1)
    harness.respond("q2", id: 12, token: 2)
    for number in 3...5 {
      harness.respond(
        "q\(number)", id: nil, success: false, message: "Too many questions at once.",
        token: number, retryAfter: Double(number - 2))
    }
    return harness
  }

  @Test func aRefusalWithRetryAfterWaitsAndNeverFails() {
    var harness = Self.burstMeetingARateLimit()
    #expect(
      harness.status(3) == .waiting(until: .seconds(1), reason: "Too many questions at once."))
    #expect(harness.state.counts.failed == 0)
    #expect(harness.state.counts.pending == 3)
    #expect(harness.state.nextWakeUp == .seconds(1))
    #expect(harness.effects.changeNames.filter { $0 == "waiting" }.count == 3)
    #expect(
      harness.state.notices.map(\.text).contains {
        $0.hasPrefix("Too many questions at once. Your questions go out again")
      }, "said once")
    // Refused again and again: it keeps waiting, however often.
    for round in 1...20 {
      harness.apply(.clock(.seconds(round * 10)))
      harness.respond(
        "q3", id: nil, success: false, message: "Too many questions at once.", token: 3,
        retryAfter: 1)
    }
    #expect(harness.state.counts.failed == 0)
  }

  @Test func waitingQuestionsGoAgainOneAtATimeInTypedOrder() {
    var harness = Self.burstMeetingARateLimit()
    #expect(harness.apply(.clock(.milliseconds(999))).sent.isEmpty, "not before its time")
    // q3's wait is over; q4 and q5 wait behind it (they were typed after it).
    #expect(harness.apply(.clock(.seconds(1))).sent.map(\.content) == ["q3"])
    #expect(harness.apply(.clock(.seconds(5))).sent.isEmpty, "one on the wire while pacing")
    #expect(harness.respond("q3", id: 13, token: 3).sent.map(\.content) == ["q4"])
    #expect(harness.respond("q4", id: 14, token: 4).sent.map(\.content) == ["q5"])
    harness.respond("q5", id: 15, token: 5)
    #expect(harness.state.orderedQuestions.map(\.content) == ["q1", "q2", "q3", "q4", "q5"])
    #expect(!harness.state.pacing, "the backlog is empty: full speed again")
    #expect(harness.ask("q6", 6).sent.map(\.content) == ["q6"])
  }

  @Test func aQuestionTypedDuringTheWaitQueuesBehindTheWaitingOnes() {
    var harness = Self.burstMeetingARateLimit()
    #expect(harness.ask("typed meanwhile", 6).sent.isEmpty)
    #expect(harness.status(6) == .queued)
  }

  @Test func aWaitSurvivesAReconnectAndTheResendKeepsItsToken() {
    var harness = Self.burstMeetingARateLimit()
    harness.apply(.disconnected(reason: "drop", retry: nil))
    harness.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: projectExtensions))))
    #expect(
      harness.status(3) == .waiting(until: .seconds(1), reason: "Too many questions at once."))
    let resent = harness.apply(.clock(.seconds(1))).sent
    #expect(resent == [NewQuestion(id: secondConnection, content: "q3", token: uuid(3))])
  }

  @Test func aHostileRetryAfterIsBoundedBothWays() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("far", 1)
    harness.ask("near", 2)
    harness.respond("far", id: nil, success: false, message: "later", token: 1, retryAfter: 1e300)
    harness.respond("near", id: nil, success: false, message: "now", token: 2, retryAfter: -5)
    #expect(harness.status(1) == .waiting(until: .seconds(600), reason: "later"))
    #expect(harness.status(2) == .waiting(until: .milliseconds(50), reason: "now"))
  }

  @Test func aRefusalWithoutRetryAfterFromAServerThatHasItIsFinal() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("rejected", 1)
    let effects = harness.respond(
      "rejected", id: nil, success: false, message: "Something went wrong creating the question.",
      token: 1)
    #expect(effects.changeNames == ["failed", "notice"])
    #expect(harness.state.nextWakeUp == nil)
  }

  @Test func anOldBackEndsRefusalIsRetriedWithBackoffABoundedNumberOfTimes() {
    var harness = Harness()
    harness.connect()  // no extensions: the reference back end
    harness.ask("unlucky", 1)
    var waits: [Duration] = []
    for _ in 0..<QnAState.blindRetryDelays.count {
      harness.respond(
        "unlucky", id: nil, success: false, message: "Something went wrong creating the question.")
      guard case .waiting(let until, _) = harness.status(1) else {
        Issue.record("not waiting: \(String(describing: harness.status(1)))")
        return
      }
      waits.append(until - harness.state.now)
      #expect(harness.apply(.clock(until)).sent.map(\.content) == ["unlucky"])
    }
    #expect(waits == QnAState.blindRetryDelays)
    harness.respond(
      "unlucky", id: nil, success: false, message: "Something went wrong creating the question.")
    #expect(harness.status(1) == .failed(reason: "Something went wrong creating the question."))
    // Ctrl-T starts the count again.
    harness.apply(.retry(uuid(1)))
    harness.respond("unlucky", id: nil, success: false, message: "again")
    #expect(harness.status(1) == .waiting(until: harness.state.now + .seconds(1), reason: "again"))
  }

  @Test func aFailedQuestionStaysPendingUntilRetriedOrDiscarded() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("keep me", 1)
    harness.respond("keep me", id: nil, success: false, message: "no", token: 1)
    #expect(harness.state.pendingQuestions.map(\.content) == ["keep me"])
    let discarded = harness.apply(.discard(uuid(1)))
    #expect(discarded.changeNames == ["discarded"])
    #expect(harness.state.pendingQuestions.isEmpty)
    #expect(harness.state.question(token: uuid(1)) == nil)
    #expect(harness.apply(.discard(uuid(1))).changeNames.isEmpty, "only a failed one")
  }

  @Test func aRestoredFailedQuestionComesBackFailedAndCanBeRetried() {
    var harness = Harness()
    let restored = harness.apply(.restore("kept", token: uuid(1), failure: "no"))
    #expect(restored.changeNames == ["failed"])
    harness.connectToProjectServer()
    #expect(harness.effects.sent.isEmpty, "not sent until the user says so")
    #expect(harness.apply(.retry(uuid(1))).sent.map(\.content) == ["kept"])
  }

  @Test func aRestoredQuestionThisVersionRefusesComesBackFailedNotLost() {
    var harness = Harness()
    let zalgo = "a" + String(repeating: "\u{301}", count: 40)
    let effects = harness.apply(.restore(zalgo, token: uuid(1)))
    #expect(effects.changeNames == ["failed"])
    guard case .failed(let reason) = harness.status(1) else {
      Issue.record("not kept: \(String(describing: harness.status(1)))")
      return
    }
    #expect(reason.contains("more than 16 marks"))
    #expect(harness.state.pendingQuestions.map(\.content) == [zalgo], "still in the file")
  }

  @Test func aRefusalCannotReviveAQuestionThatFailedForGood() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("final", 1)
    harness.respond("final", id: nil, success: false, message: "no", token: 1)
    let replay = harness.respond(
      "final", id: nil, success: false, message: "later", token: 1, retryAfter: 1)
    #expect(harness.status(1) == .failed(reason: "no"))
    #expect(replay.sent.isEmpty && harness.apply(.clock(.seconds(5))).sent.isEmpty)
  }

  @Test func aResumeOfAThousandQuestionsComesInMessagesUnderTheLimit() {
    var harness = Harness()
    harness.connectToProjectServer()
    for number in 1...1000 {
      harness.ask("question \(number)", number)
      harness.respond("question \(number)", id: number, token: number)
    }
    harness.apply(.disconnected(reason: "drop", retry: nil))
    let effects = harness.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: projectExtensions))))
    let resumes = effects.compactMap { if case .resume(let resume) = $0 { resume } else { nil } }
    #expect(resumes.map(\.questions.count) == [256, 256, 256, 232])
    #expect(resumes.flatMap(\.questions) == (1...1000).map { uuid($0, group: 0x5E) })
    for resume in resumes {
      #expect(WireCodec().encode(.resume(resume)).count < 16_384)
    }
  }

  @Test func questionsTheServerLostAreAskedAgainByTheirToken() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("lost", 1)
    harness.ask("kept", 2)
    harness.respond("lost", id: 11, token: 1)
    harness.respond("kept", id: 12, token: 2)
    harness.apply(.disconnected(reason: "restart", retry: nil))
    harness.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: projectExtensions))))
    let effects = harness.apply(
      .received(.resumed(Resumed(id: secondConnection, missing: [uuid(11, group: 0x5E)]))))
    #expect(effects.sent == [NewQuestion(id: secondConnection, content: "lost", token: uuid(1))])
    #expect(harness.status(2) == .unanswered)
    // Stored again under a new id: answers to it arrive.
    harness.respond("lost", id: 21, token: 1)
    #expect(harness.answer(21).changeNames == ["answered"])
    #expect(harness.state.question(serverID: uuid(11, group: 0x5E)) == nil)
  }

  @Test func aResumedForAnotherConnectionOrUnknownIDsChangesNothing() {
    var harness = Harness()
    harness.connectToProjectServer()
    harness.ask("mine", 1)
    harness.respond("mine", id: 11, token: 1)
    let before = harness.state
    harness.apply(
      .received(.resumed(Resumed(id: secondConnection, missing: [uuid(11, group: 0x5E)]))))
    harness.apply(.received(.resumed(Resumed(id: firstConnection, missing: [uuid(99)]))))
    #expect(harness.state == before)
  }

  @Test func retryAfterAndResumedRoundTripOnTheWire() throws {
    let codec = WireCodec()
    let refusal = WireMessage.questionResponse(
      QuestionResponse(success: false, message: "later", retryAfter: 0.25))
    #expect(try codec.decode(codec.encode(refusal)) == refusal)
    let resumed = WireMessage.resumed(Resumed(id: firstConnection, missing: [uuid(1)]))
    #expect(try codec.decode(codec.encode(resumed)) == resumed)
    let plain = String(
      decoding: codec.encode(.questionResponse(QuestionResponse(success: true, message: "ok"))),
      as: UTF8.self)
    #expect(!plain.contains("retryAfter"), "absent unless set, as the existing back ends")
  }
}
