import Foundation
import QnA
import TestSupport
import Testing

@Suite("QnAState: asking")
struct AskingTests {
  @Test func askingWhileConnectedSendsAtOnceUnderTheConnectionID() {
    var harness = Harness()
    harness.connect()
    let effects = harness.ask("  Why Swift?\n", 1)
    #expect(
      effects.sent == [NewQuestion(id: firstConnection, content: "Why Swift?", token: uuid(1))])
    #expect(effects.changeNames == ["sent"])
    #expect(harness.status(1) == .sending)
  }

  @Test func askingOfflineQueuesUntilTheHandshakeThenSendsInTypedOrder() {
    var harness = Harness()
    #expect(harness.ask("first", 1).changeNames == ["queued"])
    harness.apply(.connecting(attempt: 1))
    harness.ask("second", 2)
    harness.apply(.connected)
    #expect(harness.ask("third", 3).sent.isEmpty, "no handshake yet: nothing to send")
    #expect(harness.status(3) == .queued)
    let effects = harness.apply(.received(.handshake(Handshake(id: firstConnection))))
    #expect(effects.sent.map(\.content) == ["first", "second", "third"])
    #expect(effects.changeNames == ["handshake", "sent", "sent", "sent"])
    #expect(harness.state.counts == QuestionCounts(asked: 3, pending: 3))
  }

  @Test func emptyAndOverLongQuestionsAreRefusedWithANotice() {
    var harness = Harness(configuration: QnAConfiguration(maxQuestionLength: 5))
    harness.connect()
    #expect(harness.ask(" \n\t ", 1).changeNames == ["notice"])
    #expect(harness.ask("123456", 2).changeNames == ["notice"])
    #expect(harness.state.notices.last?.text == "Too long: 6 characters, at most 5.")
    #expect(harness.state.notices.allSatisfy { $0.kind == .error })
    // Length is in characters: five family emoji are five, not 5 × 25 bytes.
    #expect(harness.ask(String(repeating: "👩‍👩‍👧", count: 5), 3).sent.count == 1)
    #expect(harness.state.counts.asked == 1)
  }

  @Test func aQuestionTooBigInBytesForTheServerIsRefused() {
    var harness = Harness()
    harness.connect()
    // 700 characters, each a letter with 15 combining accents (within the marks a character
    // may carry): about 21 KB of UTF-8.
    let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 15), count: 700)
    #expect(heavy.count == 700)
    #expect(harness.ask(heavy, 1).changeNames == ["notice"])
    #expect(harness.state.notices.last?.text.hasPrefix("Too long for the server") == true)
    #expect(harness.state.counts.asked == 0)
  }

  @Test func aCharacterStackedWithMarksIsRefusedAndInvisibleTextIsEmpty() {
    var harness = Harness()
    harness.connect()
    harness.ask("Zalgo a" + String(repeating: "\u{301}", count: 40), 1)
    #expect(harness.state.notices.last?.text.contains("more than 16 marks") == true)
    harness.ask("\u{200B}\u{200D}\u{2060}", 2)
    #expect(harness.state.notices.last?.text == "Type a question first.")
    #expect(harness.state.counts.asked == 0)
  }

  @Test func aRestoredQuestionKeepsWhatALowerLimitWouldRefuse() {
    var harness = Harness(configuration: QnAConfiguration(maxQuestionLength: 5))
    #expect(
      harness.apply(.restore("typed under a higher limit", token: uuid(1))).changeNames == [
        "queued"
      ])
    #expect(harness.ask("typed under this limit", 2).changeNames == ["notice"])
    #expect(harness.state.pendingQuestions.map(\.content) == ["typed under a higher limit"])
  }

  @Test func aReusedTokenIsIgnored() {
    var harness = Harness()
    harness.ask("one", 1)
    #expect(harness.ask("two", 1).changes.isEmpty)
    #expect(harness.state.question(token: uuid(1))?.content == "one")
  }

  @Test func aFailedSendGoesBackToTheQueue() {
    var harness = Harness()
    harness.connect()
    harness.ask("q", 1)
    #expect(harness.apply(.sendFailed(uuid(1))).changeNames == ["queued"])
    #expect(harness.status(1) == .queued)
    #expect(harness.apply(.sendFailed(uuid(1))).isEmpty, "only a sending question requeues")
  }
}

@Suite("QnAState: server messages")
struct ServerMessageTests {
  @Test func aSuccessResponseConfirmsTheQuestionAndShowsTheServersMessage() {
    var harness = Harness()
    harness.connect()
    harness.ask("Why?", 1)
    let effects = harness.respond("Why?", id: 10, createdAt: 785_000_000.123)
    #expect(effects.changeNames == ["created", "notice"])
    let question = harness.state.question(token: uuid(1))
    #expect(question?.status == .unanswered)
    #expect(question?.serverID == uuid(10, group: 0x5E))
    #expect(question?.createdAt == Date(timeIntervalSinceReferenceDate: 785_000_000.123))
    #expect(harness.state.notices.map(\.text) == ["Question created."])
    #expect(harness.state.counts == QuestionCounts(asked: 1))
  }

  @Test func aRepeatedResponseChangesNothing() {
    var harness = Harness()
    harness.connect()
    harness.ask("Why?", 1)
    harness.respond("Why?", id: 10)
    let before = harness.state
    #expect(harness.respond("Why?", id: 10).isEmpty)
    #expect(harness.state == before)
  }

  @Test func responsesMatchSameContentQuestionsInTypedOrder() {
    var harness = Harness()
    harness.connect()
    harness.ask("same", 1)
    harness.ask("same", 2)
    harness.respond("same", id: 20)
    #expect(harness.state.question(token: uuid(1))?.serverID == uuid(20, group: 0x5E))
    #expect(harness.status(2) == .sending)
    harness.respond("same", id: 21)
    #expect(harness.state.question(token: uuid(2))?.serverID == uuid(21, group: 0x5E))
  }

  @Test func responsesOutOfOrderMatchByContent() {
    var harness = Harness()
    harness.connect()
    harness.ask("a", 1)
    harness.ask("b", 2)
    harness.respond("b", id: 11)
    harness.respond("a", id: 12)
    #expect(harness.state.question(token: uuid(1))?.serverID == uuid(12, group: 0x5E))
    #expect(harness.state.question(token: uuid(2))?.serverID == uuid(11, group: 0x5E))
  }

  @Test func anEchoedTokenWinsOverContent() {
    var harness = Harness()
    harness.connect()
    harness.ask("same", 1)
    harness.ask("same", 2)
    var response = QuestionResponse(
      success: true, message: "ok", id: uuid(9), content: "same", createdAt: Date())
    response.token = uuid(2)
    harness.apply(.received(.questionResponse(response)))
    #expect(harness.status(2) == .unanswered)
    #expect(harness.status(1) == .sending)
  }

  @Test func aFailureMarksThePendingQuestionFailedWithTheServersReason() {
    var harness = Harness()
    // A server that says when a refusal may be retried (one without it is final), but
    // matches responses the old way, without tokens.
    harness.connect(extensions: [ProtocolExtension.retryAfter])
    harness.ask("spam", 1)
    let effects = harness.respond(
      "spam", id: 30, success: false, message: "Something went wrong creating the question.")
    #expect(effects.changeNames == ["failed", "notice"])
    #expect(harness.status(1) == .failed(reason: "Something went wrong creating the question."))
    #expect(harness.state.notices.last?.kind == .error)
    #expect(harness.state.counts == QuestionCounts(asked: 1, failed: 1))
    // The id of a failed save was never stored: an answer for it is not this question's.
    harness.answer(30)
    #expect(harness.status(1) == .failed(reason: "Something went wrong creating the question."))
  }

  @Test func aFailureWithoutContentOrIDIsAboutTheOldestQuestionOnTheWire() {
    var harness = Harness()
    // A server that says when a refusal may be retried (one without it is final), but
    // matches responses the old way, without tokens.
    harness.connect(extensions: [ProtocolExtension.retryAfter])
    harness.ask("a", 1)
    harness.ask("b", 2)
    harness.respond(nil, id: nil, success: false, message: "rate limited")
    #expect(harness.status(1) == .failed(reason: "rate limited"))
    #expect(harness.status(2) == .sending)
  }

  @Test func aRepeatedFailureChangesNothing() {
    var harness = Harness()
    harness.connect()
    harness.ask("a", 1)
    harness.ask("a", 2)
    harness.respond("a", id: 30, success: false, message: "no")
    let before = harness.state
    #expect(harness.respond("a", id: 30, success: false, message: "no").isEmpty)
    #expect(harness.state == before)
  }

  @Test func aFailureMatchingNothingIsLoggedOnly() {
    var harness = Harness()
    harness.connect()
    let effects = harness.respond("never asked", id: 31, success: false, message: "no")
    #expect(effects.changes.isEmpty)
    #expect(effects.count == 1)
  }

  @Test func aFailedQuestionCanBeRetried() {
    var harness = Harness()
    // A server that says when a refusal may be retried (one without it is final), but
    // matches responses the old way, without tokens.
    harness.connect(extensions: [ProtocolExtension.retryAfter])
    harness.ask("again", 1)
    harness.respond("again", id: nil, success: false, message: "busy")
    let effects = harness.apply(.retry(uuid(1)))
    #expect(effects.sent.map(\.content) == ["again"])
    #expect(harness.status(1) == .sending)
    harness.respond("again", id: 40)
    #expect(harness.status(1) == .unanswered)
    #expect(harness.apply(.retry(uuid(1))).changes.isEmpty, "only failed questions retry")
  }

  @Test func retryingOfflineQueuesForTheNextHandshake() {
    var harness = Harness()
    // A server that says when a refusal may be retried (one without it is final), but
    // matches responses the old way, without tokens.
    harness.connect(extensions: [ProtocolExtension.retryAfter])
    harness.ask("again", 1)
    harness.respond("again", id: nil, success: false, message: "busy")
    harness.apply(.disconnected(reason: "gone", retry: nil))
    #expect(harness.apply(.retry(uuid(1))).changeNames == ["queued"])
    harness.connect(secondConnection, extensions: [ProtocolExtension.retryAfter])
    #expect(harness.status(1) == .sending)
  }

  @Test func anAnswerFlipsTheQuestionOnce() {
    var harness = Harness()
    harness.connect()
    harness.ask("q", 1)
    harness.respond("q", id: 10)
    harness.apply(.clock(.seconds(7)))
    #expect(harness.answer(10).changeNames == ["answered"])
    #expect(harness.status(1) == .answered)
    #expect(harness.state.question(token: uuid(1))?.answeredAt == .seconds(7))
    #expect(harness.answer(10).isEmpty, "the reference back end may send it twice")
    #expect(harness.state.counts == QuestionCounts(asked: 1, answered: 1))
  }

  @Test func anAnswerBeforeItsResponseIsAppliedWhenTheQuestionAppears() {
    var harness = Harness()
    harness.connect()
    harness.ask("q", 1)
    #expect(harness.answer(10).changes.isEmpty)
    #expect(harness.status(1) == .sending)
    let effects = harness.respond("q", id: 10)
    #expect(effects.changeNames == ["created", "notice", "answered"])
    #expect(harness.status(1) == .answered)
  }

  @Test func aResponseAlreadyAnsweredArrivesAnswered() {
    var harness = Harness()
    harness.connect()
    harness.ask("q", 1)
    harness.respond("q", id: 10, answered: true)
    #expect(harness.status(1) == .answered)
  }

  @Test func aRepeatedResponseCanBringTheAnswer() {
    var harness = Harness()
    harness.connect()
    harness.ask("q", 1)
    harness.respond("q", id: 10)
    #expect(harness.respond("q", id: 10, answered: true).changeNames == ["answered"])
  }

  @Test func aResponseForAQuestionNotTypedHereJoinsTheList() {
    var harness = Harness()
    harness.connect()
    harness.respond("from an earlier session", id: 50)
    let question = harness.state.question(serverID: uuid(50, group: 0x5E))
    #expect(question?.content == "from an earlier session")
    #expect(question?.status == .unanswered)
    #expect(harness.respond(nil, id: 51).changes.isEmpty, "nothing to show without content")
  }

  @Test func unknownAndMalformedMessagesAreCountedAndIgnored() {
    var harness = Harness()
    harness.connect()
    harness.ask("q", 1)
    let before = harness.state
    let effects = harness.apply(.undecodable(.unknownType("poll")))
    harness.apply(.undecodable(.malformed("not JSON")))
    #expect(effects.changes.isEmpty && effects.count == 1)
    #expect(harness.state.undecodableCount == 2)
    #expect(harness.state.connection == before.connection)
    #expect(harness.status(1) == .sending)
    #expect(
      harness.apply(.received(.newQuestion(NewQuestion(id: uuid(3), content: "x")))).changes
        .isEmpty)
  }
}

@Suite("QnAState: connection changes")
struct ConnectionTests {
  @Test func aReconnectBringsANewHandshakeIDAndResendsWhatWasUnconfirmed() {
    var harness = Harness()
    harness.connect(firstConnection)
    harness.ask("confirmed", 1)
    harness.respond("confirmed", id: 10)
    harness.ask("in flight", 2)
    let down = harness.apply(
      .disconnected(reason: "no pong", retry: .init(after: .milliseconds(400), attempt: 2)))
    #expect(down.changeNames == ["disconnected", "queued"])
    #expect(harness.status(2) == .queued)
    #expect(harness.state.connectionID == nil)
    harness.ask("offline", 3)

    harness.apply(.connecting(attempt: 2))
    harness.apply(.connected)
    let up = harness.apply(.received(.handshake(Handshake(id: secondConnection))))
    #expect(
      up.sent == [
        NewQuestion(id: secondConnection, content: "in flight", token: uuid(2)),
        NewQuestion(id: secondConnection, content: "offline", token: uuid(3)),
      ])
    #expect(harness.state.connectionID == secondConnection)
    #expect(harness.status(1) == .unanswered)
  }

  @Test func aResponseToAQuestionRequeuedByADisconnectConfirmsItWithoutAResend() {
    var harness = Harness()
    harness.connect()
    harness.ask("q", 1)
    harness.apply(.disconnected(reason: "drop", retry: nil))
    harness.respond("q", id: 10)
    #expect(harness.status(1) == .unanswered)
    harness.connect(secondConnection)
    #expect(harness.effects.sent.count == 1)
  }

  @Test func noticesExpireOnClockTime() {
    var harness = Harness(configuration: QnAConfiguration(noticeLifetime: .seconds(3)))
    harness.apply(.clock(.seconds(10)))
    harness.ask("", 1)
    harness.apply(.clock(.seconds(12)))
    #expect(harness.state.notices.count == 1)
    harness.apply(.clock(.seconds(13)))
    #expect(harness.state.notices.isEmpty)
    #expect(harness.state.notices.isEmpty, "expired notices leave the state")
    harness.apply(.clock(.seconds(5)))
    #expect(harness.state.now == .seconds(13), "the clock never runs backwards")
  }

  @Test func onlyTheNewestNoticesStay() {
    var harness = Harness(configuration: QnAConfiguration(maxNotices: 2))
    for text in ["", " ", "  "] { harness.apply(.ask(text, token: uuid(1))) }
    #expect(harness.state.notices.count == 2)
  }
}

@Suite("QnAState: derived views")
struct ViewTests {
  @Test func questionsAreOrderedByCreationWithPendingOnesLastInTypedOrder() {
    var harness = Harness()
    // A server that says when a refusal may be retried (one without it is final), but
    // matches responses the old way, without tokens.
    harness.connect(extensions: [ProtocolExtension.retryAfter])
    for (token, text) in [(1, "a"), (2, "b"), (3, "c"), (4, "d")] { harness.ask(text, token) }
    harness.respond("c", id: 1, createdAt: 100)
    harness.respond("a", id: 2, createdAt: 200)
    harness.respond("d", id: nil, success: false, message: "no")
    #expect(harness.state.orderedQuestions.map(\.content) == ["c", "a", "b", "d"])
    #expect(harness.state.counts == QuestionCounts(asked: 4, pending: 1, failed: 1))
  }
}

@Suite("QnAState: many questions")
struct ManyQuestionsTests {
  @Test func hundredsConfirmedInReverseOrderLeaveNothingPendingBehind() {
    var harness = Harness()
    harness.connect()
    for index in 0..<300 { harness.ask("q\(index)", index) }
    for index in (0..<300).reversed() {
      harness.respond("q\(index)", id: index, createdAt: Double(index))
    }
    #expect(harness.state.counts == QuestionCounts(asked: 300))
    #expect(harness.state.orderedQuestions.map(\.content) == (0..<300).map { "q\($0)" })
    #expect(harness.state.unconfirmed.count <= 64, "confirmed questions leave the queue")
    harness.apply(.disconnected(reason: "drop", retry: nil))
    harness.connect(secondConnection)
    #expect(harness.effects.sent.count == 300, "nothing confirmed is sent again")
  }
}
