import Foundation
import QnA
import TestSupport
import Testing

/// The question life cycle (extension `lifecycle`) for the attendee, and the presenter's
/// actions (extension `presenter`) in the reducer.
@Suite("QnAState: the life cycle and the presenter's actions")
struct LifecycleTests {
  typealias Driver = StateDriver
  static let lifecycle = Driver.roomExtensions + [ProtocolExtension.lifecycle]
  static let presenter = lifecycle + [ProtocolExtension.presenter]

  static func q(_ n: Int, state: QuestionState, answer: String? = nil, isPrivate: Bool? = nil)
    -> RoomQuestion
  {
    var question = Driver.roomQuestion(n, answered: state == .answered)
    question.state = state.rawValue
    question.answer = answer
    question.isPrivate = isPrivate
    return question
  }

  /// An attendee in a room with the life cycle, having asked one question now in review.
  static func askedInReview() -> (Driver, UUID) {
    var driver = Driver()
    driver.apply(.identity(attendee: Driver.attendee, name: nil))
    driver.connect(extensions: lifecycle)
    driver.receiveSnapshot([], seq: 0)
    let token = driver.ask("Mine, in review")
    let response = QuestionResponse(
      success: true, message: "Question received.", id: uuid(1, group: 0x5E), answered: false,
      content: "Mine, in review", createdAt: Date(timeIntervalSinceReferenceDate: 821_692_860),
      token: token, state: .review)
    driver.apply(.received(.questionResponse(response)))
    return (driver, uuid(1, group: 0x5E))
  }

  @Test func theAskersQuestionInReviewIsInReviewNeverLostOrFailed() throws {
    let (driver, id) = Self.askedInReview()
    let question = try #require(driver.state.question(serverID: id))
    #expect(question.status == .unanswered && question.state == .review)
    // In the asker's room too, marked so and theirs; the headless line says "review".
    let entry = try #require(driver.state.roomEntry(id))
    #expect(entry.state == .review && entry.mine)
    #expect(driver.effects.roomLines.last?.state == .review)
  }

  /// Another instance answered while this one's notices were down: the asker's `answer`
  /// message never came, and its socket stayed up (no resume). The room's state is the same
  /// fact; the asker hears it once, and the answer's text later still.
  @Test func theRoomSayingAnOwnQuestionIsAnsweredIsTheAnswer() throws {
    var (driver, id) = Self.askedInReview()
    _ = driver.receiveDelta(from: 1, to: 1, [Self.q(1, state: .live)])
    var effects = driver.receiveDelta(from: 2, to: 2, [Self.q(1, state: .answered)])
    #expect(driver.state.question(serverID: id)?.status == .answered)
    #expect(effects.changeNames.filter { $0 == "answered" }.count == 1, "\(effects.changeNames)")
    // Said again by a later delta or a snapshot: nothing new.
    effects = driver.receiveDelta(from: 3, to: 3, [Self.q(1, state: .answered)])
    #expect(!effects.changeNames.contains("answered"))
    // The answer message after it: its text is the news.
    effects = driver.apply(
      .received(.questionAnswer(QuestionAnswer(questionId: id, text: "Yes.", isPrivate: false))))
    #expect(driver.state.question(serverID: id)?.answer == "Yes.")
    #expect(effects.changeNames.contains("answered"))
  }

  @Test func approvalAndDismissalReachTheAskerInWords() throws {
    var (driver, id) = Self.askedInReview()
    var effects = driver.receiveDelta(from: 1, to: 1, [Self.q(1, state: .live)])
    #expect(driver.state.question(serverID: id)?.state == .live)
    #expect(effects.notices.contains { $0.contains("now public") })
    // Dismissed: attendees' deltas name it removed; its asker keeps it, marked dismissed.
    effects = driver.receiveDelta(from: 2, to: 2, removed: [id])
    #expect(driver.state.question(serverID: id)?.state == .dismissed)
    #expect(driver.state.roomEntry(id)?.state == .dismissed)
    #expect(effects.notices.contains { $0.contains("dismissed your question") })
    // Restored: back in the room.
    driver.receiveDelta(from: 3, to: 3, [Self.q(1, state: .live)])
    #expect(driver.state.roomEntry(id)?.state == .live)
    #expect(driver.state.question(serverID: id)?.state == .live)
  }

  @Test func anotherAttendeesQuestionInReviewIsNeverShownEvenIfSent() {
    var driver = Driver()
    driver.enterRoom(questions: [Self.q(5, state: .review), Self.q(6, state: .dismissed)])
    #expect(driver.state.roomEntries(.popular).isEmpty)
    var presenter = Driver(configuration: QnAConfiguration(presenter: true))
    presenter.enterRoom(questions: [Self.q(5, state: .review), Self.q(6, state: .dismissed)])
    #expect(presenter.state.roomEntries(.popular).count == 2)
  }

  @Test func anAnswersTextReachesTheAskerPublicOrPrivate() throws {
    var (driver, id) = Self.askedInReview()
    let effects = driver.apply(
      .received(.questionAnswer(QuestionAnswer(questionId: id, text: "Yes.", isPrivate: true))))
    let question = try #require(driver.state.question(serverID: id))
    #expect(question.status == .answered && question.answer == "Yes." && question.answerIsPrivate)
    #expect(effects.changes.contains { if case .answered = $0 { true } else { false } })
    #expect(driver.state.roomEntry(id)?.answer == "Yes.")
    // The text changed later: news, though it was answered already.
    let again = driver.apply(
      .received(.questionAnswer(QuestionAnswer(questionId: id, text: "Yes, on Monday."))))
    #expect(driver.state.question(serverID: id)?.answer == "Yes, on Monday.")
    #expect(!again.changes.isEmpty)
  }

  @Test func aPrivateAnswerStaysWithItsAskerThroughLaterDeltas() throws {
    var (driver, id) = Self.askedInReview()
    driver.receiveDelta(from: 1, to: 1, [Self.q(1, state: .live)])
    driver.apply(
      .received(.questionAnswer(QuestionAnswer(questionId: id, text: "Psst.", isPrivate: true))))
    // The room's delta carries no private answer; the asker's view keeps it.
    driver.receiveDelta(from: 2, to: 2, [Self.q(1, state: .answered)])
    #expect(driver.state.roomEntry(id)?.answer == "Psst.")
    #expect(driver.state.roomEntry(id)?.question.isPrivate == true)
    // A resume's response carries the flag as well.
    let again = QuestionResponse(
      success: true, message: "Question restored.", id: id, answered: true,
      content: "Mine, in review", token: nil, state: .answered, answer: "Psst, edited.",
      isPrivate: true)
    driver.apply(.received(.questionResponse(again)))
    let question = try #require(driver.state.question(serverID: id))
    #expect(question.answer == "Psst, edited." && question.answerIsPrivate)
    #expect(question.state == .live, "answered is a status; as a state it is public")
  }

  @Test func aQuestionFromAnEarlierRunDismissedStaysMarkedForItsAsker() {
    var driver = Driver()
    driver.apply(.identity(attendee: Driver.attendee, name: nil))
    driver.connect(extensions: Self.lifecycle)
    var mine = Self.q(4, state: .live)
    mine.mine = true
    driver.receiveSnapshot([mine], seq: 3)
    let effects = driver.receiveDelta(from: 4, to: 4, removed: [uuid(4, group: 0x5E)])
    #expect(driver.state.roomEntry(uuid(4, group: 0x5E))?.state == .dismissed)
    #expect(effects.notices.contains { $0.contains("dismissed your question") })
  }

  @Test func anActionRefusedForNowWaitsAndHoldsBackTheOnesAfterIt() {
    var driver = Driver(configuration: QnAConfiguration(presenter: true))
    driver.apply(.identity(attendee: Driver.attendee, name: nil))
    driver.apply(.connected)
    driver.apply(
      .received(.handshake(Handshake(id: firstConnection, extensions: Self.presenter))))
    let question = uuid(3, group: 0x5E)
    driver.apply(.act(.dismiss, question: question, token: uuid(1)))
    driver.apply(.act(.restore, question: question, token: uuid(2)))
    driver.apply(
      .received(
        .presenterActionResponse(
          PresenterActionResponse(
            token: uuid(1), question: question, success: false, message: "busy",
            retryAfter: 2))))
    #expect(driver.state.nextWakeUp == .seconds(2))
    // Before the wait is over nothing goes, not even the restore typed after it.
    var effects = driver.apply(.clock(.seconds(1)))
    #expect(!effects.contains { if case .presenterAction = $0 { true } else { false } })
    effects = driver.apply(.clock(.seconds(2)))
    let sent = effects.compactMap {
      if case .presenterAction(let action) = $0 { action.token } else { nil }
    }
    #expect(sent == [uuid(1)], "one at a time: the restore waits for the dismiss's answer")
    effects = driver.apply(
      .received(
        .presenterActionResponse(
          PresenterActionResponse(token: uuid(1), question: question, success: true))))
    #expect(
      effects.contains {
        if case .presenterAction(let action) = $0 { action.token == uuid(2) } else { false }
      })
  }

  @Test func actionsAreQueuedOfflineSentInOrderAfterTheJoinAndResentByTheSameToken() {
    var driver = Driver(configuration: QnAConfiguration(presenter: true))
    driver.apply(.identity(attendee: Driver.attendee, name: nil))
    let question = uuid(3, group: 0x5E)
    driver.apply(.act(.dismiss, question: question, token: uuid(1)))
    driver.apply(
      .act(.answer, question: question, text: "  Later ", isPrivate: true, token: uuid(2)))
    #expect(driver.state.desk.pendingCount == 2)
    var effects = driver.apply(.connecting(attempt: 1))
    driver.apply(.connected)
    effects = driver.apply(
      .received(.handshake(Handshake(id: firstConnection, extensions: Self.presenter))))
    let sent = effects.compactMap {
      if case .presenterAction(let action) = $0 { action } else { nil }
    }
    // One at a time, in order: the first, after the join.
    #expect(sent.map(\.token) == [uuid(1)] && sent[0].isPrivate == nil)
    let firstJoin = effects.firstIndex { if case .join = $0 { true } else { false } }
    let firstAction = effects.firstIndex { if case .presenterAction = $0 { true } else { false } }
    #expect(firstJoin! < firstAction!)
    // Its answer lets the next go; dropped before that one's answer, it goes again, by the
    // same token, after the next handshake.
    let next = driver.apply(
      .received(
        .presenterActionResponse(
          PresenterActionResponse(token: uuid(1), question: question, success: true))))
    let second = next.compactMap {
      if case .presenterAction(let action) = $0 { action } else { nil }
    }
    #expect(second.map(\.token) == [uuid(2)])
    #expect(second.first?.text == "Later" && second.first?.isPrivate == true)
    driver.apply(.disconnected(reason: "gone", retry: .init(after: .seconds(1), attempt: 2)))
    driver.apply(.connected)
    effects = driver.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: Self.presenter))))
    let resent = effects.compactMap {
      if case .presenterAction(let action) = $0 { action } else { nil }
    }
    #expect(resent.map(\.token) == [uuid(2)] && resent.first?.id == secondConnection)
    let refused = driver.apply(
      .received(
        .presenterActionResponse(
          PresenterActionResponse(
            token: uuid(2), question: question, success: false, message: "No such question."))))
    #expect(refused.notices == ["No such question."])
    #expect(driver.state.desk.pendingCount == 0)
  }

  @Test func aServerThatDoesNotGrantThePresenterRoleIsSaidSoAndGetsNoActions() {
    var driver = Driver(configuration: QnAConfiguration(presenter: true))
    driver.apply(.identity(attendee: Driver.attendee, name: nil))
    driver.apply(.act(.approve, question: uuid(3, group: 0x5E), token: uuid(1)))
    driver.apply(.connected)
    let effects = driver.apply(
      .received(.handshake(Handshake(id: firstConnection, extensions: Self.lifecycle))))
    #expect(!effects.contains { if case .presenterAction = $0 { true } else { false } })
    #expect(effects.notices.contains { $0.contains("check the token") })
    // An attendee's client never acts.
    var attendee = Driver()
    #expect(attendee.apply(.act(.approve, question: uuid(3), token: uuid(1))).notices.count == 1)
  }

  @Test func undoTakesBackTheLastDismissRestoreOrHighlight() {
    var driver = Driver(configuration: QnAConfiguration(presenter: true))
    let (a, b) = (uuid(1, group: 0x5E), uuid(2, group: 0x5E))
    driver.enterRoom(questions: [Self.q(1, state: .live), Self.q(2, state: .live)], highlighted: a)
    func lastAction(_ effects: [QnAEffect]) -> (PresenterActionKind, UUID?)? {
      for case .report(.action(let action, .queued)) in effects.reversed() {
        return (action.kind, action.question)
      }
      return nil
    }
    driver.apply(.act(.dismiss, question: b, token: uuid(10)))
    var effects = driver.apply(.undo(token: uuid(11)))
    #expect(lastAction(effects)! == (.restore, b))
    // An undo is not undone by the next one.
    #expect(driver.apply(.undo(token: uuid(12))).notices == ["Nothing to undo."])
    // Highlighting b while a was highlighted: undo highlights a again.
    driver.apply(.act(.highlight, question: b, token: uuid(13)))
    effects = driver.apply(.undo(token: uuid(14)))
    #expect(lastAction(effects)! == (.highlight, a))
    // After an approve or an answer, undo is about that one, never an older dismiss.
    driver.apply(.act(.dismiss, question: a, token: uuid(15)))
    driver.apply(.act(.answer, question: b, token: uuid(16)))
    #expect(
      driver.apply(.undo(token: uuid(17))).notices == [
        "The last action (answer) cannot be undone."
      ])
  }

  /// Every life-cycle change delivered twice, and the deltas of one change set delivered out
  /// of order (the later one first, then the catch-up): the attendee ends where the server is.
  @Test func lifeCycleDeltasTwiceOrOutOfOrderEndWhereTheServerIs() {
    let steps: [(QuestionState, String?)] = [
      (.live, nil), (.answered, "Yes."), (.dismissed, nil), (.live, nil),
    ]
    var twice = Driver()
    twice.enterRoom(questions: [Self.q(1, state: .review)], seq: 0)
    for (index, step) in steps.enumerated() {
      let question = Self.q(1, state: step.0, answer: step.1)
      for _ in 0..<2 {
        twice.receiveDelta(from: index + 1, to: index + 1, [question])
      }
    }
    #expect(twice.state.room.seq == steps.count)
    #expect(twice.state.roomEntry(uuid(1, group: 0x5E))?.state == .live)
    var reordered = Driver()
    reordered.enterRoom(questions: [Self.q(1, state: .review)], seq: 0)
    // The answer's delta before the approval's: a gap, so it waits for the catch-up.
    reordered.receiveDelta(from: 2, to: 2, [Self.q(1, state: .answered, answer: "Yes.")])
    #expect(reordered.state.roomEntry(uuid(1, group: 0x5E))?.state == .review)
    reordered.receiveDelta(from: 1, to: 2, [Self.q(1, state: .answered, answer: "Yes.")])
    reordered.receiveDelta(from: 1, to: 1, [Self.q(1, state: .live)])
    #expect(reordered.state.room.seq == 2)
    let entry = reordered.state.roomEntry(uuid(1, group: 0x5E))
    #expect(entry?.state == .answered && entry?.answer == "Yes.")
  }
}

extension [QnAEffect] {
  var notices: [String] {
    compactMap { if case .report(.notice(let notice)) = $0 { notice.text } else { nil } }
  }
}
