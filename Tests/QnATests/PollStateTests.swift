import Foundation
import QnA
import TestSupport
import Testing

/// Polls in the reducer: an answer sent once with its token, kept across a drop and sent
/// again after the next join, settled by the server's response; a closed or deleted poll,
/// and a server without polls, said in words.
@Suite("QnAState: polls")
struct PollStateTests {
  static let poll = uuid(1, group: 0x9C)
  static let extensions = StateDriver.roomExtensions + [ProtocolExtension.polls]

  static func open(_ state: String = "open", results: PollResults? = nil) -> RoomPoll {
    RoomPoll(
      id: poll, n: 1,
      spec: PollSpec(kind: .single, prompt: "Tabs or spaces?", options: ["Tabs", "Spaces"]),
      state: PollState(rawValue: state) ?? .open, shown: true, results: results)
  }

  static func entered(polls: [RoomPoll] = [open()]) -> StateDriver {
    var driver = StateDriver()
    driver.apply(.identity(attendee: StateDriver.attendee, name: nil))
    driver.connect(extensions: extensions)
    driver.apply(
      .received(
        .room(
          RoomSnapshot(
            seq: 5, part: 1, parts: 1, questions: [], epoch: StateDriver.roomEpoch, polls: polls)
        )))
    return driver
  }

  static func answers(_ effects: [QnAEffect]) -> [PollAnswer] {
    effects.compactMap { if case .pollAnswer(let answer) = $0 { answer } else { nil } }
  }

  @Test func anAnswerGoesOnceAndTheResponseSettlesIt() {
    var driver = Self.entered()
    let token = uuid(1, group: 0x7A)
    let sent = Self.answers(
      driver.apply(.answerPoll(poll: Self.poll, value: PollValue(choices: [1]), token: token)))
    #expect(sent.map(\.token) == [token])
    #expect(driver.state.room.polls.isPending(Self.poll))
    #expect(driver.state.room.polls.answer(to: Self.poll) == PollValue(choices: [1]))
    // A clock tick sends nothing again while it is on the wire.
    #expect(Self.answers(driver.apply(.clock(.seconds(5)))).isEmpty)
    driver.apply(
      .received(
        .pollAnswerResponse(
          PollAnswerResponse(
            poll: Self.poll, token: token, success: true, value: PollValue(choices: [1]), seq: 6))))
    #expect(!driver.state.room.polls.isPending(Self.poll))
    // An older snapshot does not undo the settled answer.
    driver.apply(
      .received(
        .room(
          RoomSnapshot(
            seq: 5, part: 1, parts: 1, questions: [], epoch: StateDriver.roomEpoch,
            polls: [Self.open()]))))
    #expect(driver.state.room.polls.answer(to: Self.poll) == PollValue(choices: [1]))
  }

  @Test func anAnswerTypedOfflineGoesAfterTheNextJoinWithItsToken() {
    var driver = Self.entered()
    driver.apply(.disconnected(reason: "drop", retry: .init(after: .seconds(1), attempt: 2)))
    let token = uuid(2, group: 0x7A)
    #expect(
      Self.answers(
        driver.apply(.answerPoll(poll: Self.poll, value: PollValue(choices: [0]), token: token))
      ).isEmpty, "nothing goes while offline")
    #expect(driver.state.room.polls.kept.map(\.token) == [token], "kept for the file")
    driver.apply(.connecting(attempt: 2))
    driver.apply(.connected)
    let effects = driver.apply(
      .received(.handshake(Handshake(id: secondConnection, extensions: Self.extensions))))
    #expect(Self.answers(effects).map(\.token) == [token])
    #expect(Self.answers(effects).first?.id == secondConnection)
  }

  @Test func aRefusalIsSaidAndWhatCountedStays() {
    var driver = Self.entered()
    let token = uuid(3, group: 0x7A)
    driver.apply(.answerPoll(poll: Self.poll, value: PollValue(choices: [0]), token: token))
    let effects = driver.apply(
      .received(
        .pollAnswerResponse(
          PollAnswerResponse(
            poll: Self.poll, token: token, success: false, message: "That poll is closed."))))
    #expect(
      effects.contains {
        if case .report(.notice(let n)) = $0 { n.text == "That poll is closed." } else { false }
      })
    #expect(driver.state.room.polls.answer(to: Self.poll) == nil)
  }

  @Test func closedOrUnknownPollsAndImpossibleAnswersAreSaidAtOnce() {
    var driver = Self.entered(polls: [Self.open("closed")])
    let closed = driver.apply(
      .answerPoll(poll: Self.poll, value: PollValue(choices: [0]), token: uuid(4)))
    #expect(Self.answers(closed).isEmpty)
    var open = Self.entered()
    let nowhere = open.apply(
      .answerPoll(poll: Self.poll, value: PollValue(choices: [5]), token: uuid(5)))
    #expect(Self.answers(nowhere).isEmpty)
    #expect(
      nowhere.contains {
        if case .report(.notice(let n)) = $0 {
          n.text.contains("options the poll does not have")
        } else {
          false
        }
      })
    // A poll deleted while an answer waits: the answer goes nowhere.
    open.apply(.disconnected(reason: "drop", retry: nil))
    open.apply(.answerPoll(poll: Self.poll, value: PollValue(choices: [0]), token: uuid(6)))
    open.apply(.received(.roomDelta(RoomDelta(from: 6, to: 6, removedPolls: [Self.poll]))))
    #expect(open.state.room.polls.kept.isEmpty)
  }

  @Test func aResetForgetsTheAnswerCounted() {
    var driver = Self.entered()
    let token = uuid(8, group: 0x7A)
    driver.apply(.answerPoll(poll: Self.poll, value: PollValue(choices: [1]), token: token))
    driver.apply(
      .received(
        .pollAnswerResponse(
          PollAnswerResponse(
            poll: Self.poll, token: token, success: true, value: PollValue(choices: [1]), seq: 6))))
    var reset = Self.open()
    reset.round = 1
    driver.apply(.received(.roomDelta(RoomDelta(from: 6, to: 7, polls: [reset]))))
    #expect(driver.state.room.polls.answer(to: Self.poll) == nil)
  }

  @Test func aRemovedPollTakesItsNumberOnlyWhenItIsStillItsOwn() {
    var driver = Self.entered()
    var newer = Self.open()
    newer.id = uuid(2, group: 0x9C)
    driver.apply(
      .received(.roomDelta(RoomDelta(from: 6, to: 6, polls: [newer], removedPolls: [Self.poll]))))
    driver.apply(
      .received(
        .roomDelta(
          RoomDelta(from: 7, to: 7, pollResults: [PollResults(n: 1, answers: 1, counts: [0, 1])]))))
    #expect(driver.state.room.polls.byID[newer.id]?.results?.counts == [0, 1])
  }

  @Test func aHostileServersScaleOrCountsDoNotCrashTheClient() {
    var reversed = RoomPoll(
      id: Self.poll, n: 1, spec: PollSpec(kind: .rating, prompt: "Rate"), state: .open,
      shown: true)
    reversed.scale = PollScale(min: 5, max: 1)
    var huge = Self.open(results: PollResults(answers: Int.max, counts: [Int.max, -1]))
    huge.id = uuid(3, group: 0x9C)
    let driver = Self.entered(polls: [reversed, huge])
    #expect(driver.state.room.polls.byID.isEmpty, "neither admitted")
  }

  @Test func resultsMoveByNumberAndAHostileServerIsBounded() {
    var driver = Self.entered()
    driver.apply(
      .received(
        .roomDelta(
          RoomDelta(from: 6, to: 6, pollResults: [PollResults(n: 1, answers: 3, counts: [1, 2])]))))
    #expect(driver.state.room.polls.byID[Self.poll]?.results?.counts == [1, 2])
    let flood = (0..<1000).map { index in
      RoomPoll(
        id: uuid(index, group: 0x9D), n: index + 10,
        spec: PollSpec(kind: .words, prompt: String(repeating: "x", count: 100)), state: .open,
        shown: true)
    }
    driver.apply(.received(.roomDelta(RoomDelta(from: 7, to: 7, polls: flood))))
    #expect(driver.state.room.polls.byID.count == 200)
  }
}
