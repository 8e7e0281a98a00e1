import Foundation
import QnA
import QnATerminal
import TestSupport
import Testing

/// The presenter's console: lists by state, keys that act on the selected question, an
/// answer typed in the input line, and a selection that live updates never move.
@Suite("The presenter's console")
struct PresenterConsoleTests {
  init() { #expect(utf8Locale) }

  static func q(_ n: Int, _ content: String, votes: Int = 0, state: QuestionState) -> RoomQuestion {
    var question = StateDriver.roomQuestion(n, content, votes: votes, answered: state == .answered)
    question.state = state.rawValue
    return question
  }

  static func console() -> (StateDriver, TerminalModel) {
    var driver = StateDriver(configuration: QnAConfiguration(presenter: true), now: .seconds(100))
    driver.apply(.identity(attendee: StateDriver.attendee, name: nil))
    driver.connect(
      extensions: StateDriver.roomExtensions + [
        ProtocolExtension.lifecycle, ProtocolExtension.presenter,
      ])
    driver.receiveSnapshot(
      [
        q(1, "Pending approval", state: .review),
        q(2, "Most voted", votes: 9, state: .live),
        q(3, "Less voted", votes: 2, state: .live),
        q(4, "Done", state: .answered),
        q(5, "Spam", state: .dismissed),
      ], seq: 5)
    var model = TerminalModel(
      options: .init(url: "ws://127.0.0.1:8080/socket", presenter: true), state: driver.state,
      rows: 9, columns: 70)
    model.now = driver.state.now
    return (driver, model)
  }

  func id(_ n: Int) -> UUID { uuid(n, group: 0x5E) }

  @Test func listsByStateWithCountsAndTheKeysInTheInputLine() {
    var (_, model) = Self.console()
    expectScreen(
      model,
      """
       qna present  by votes  ws://127.0.0.1:8080…  ● connected · #000000c0
       ▲ 9       Most voted
       ▲ 2       Less voted




       Review 1 · [Live 2] · Answered 1 · Dismissed 1
       a approve · e edit · d dismiss · r restore · h now answering · N ne…
      """)
    _ = model.press(.text("1"))
    #expect(model.roomEntries.map(\.id) == [id(1)])
    #expect(model.selection?.id == id(1), "a list shown selects its first question")
    _ = model.press(.tab, .tab, .tab)
    #expect(model.presenterTab == .dismissed && model.roomEntries.map(\.id) == [id(5)])
  }

  @Test func eachKeyActsOnTheSelectedQuestion() {
    var (_, model) = Self.console()
    // The top question is selected from the start: the keys act at once.
    #expect(model.press(.text("h")) == [.act(.highlight, id(2), text: nil, isPrivate: false)])
    #expect(model.press(.text("d")) == [.act(.dismiss, id(2), text: nil, isPrivate: false)])
    #expect(model.press(.text("m")) == [.act(.answer, id(2), text: nil, isPrivate: false)])
    #expect(model.press(.text("u")) == [.undo])
    // Keys typed quickly arrive joined: each acts.
    #expect(model.press(.text("hd")).count == 2)
    // An answer typed in the input line, with the line editor's keys; Enter sends it.
    _ = model.press(.text("p"))
    model.type("Nope")
    _ = model.press(.backspace, .text("e."))
    #expect(screen(model).hasSuffix("Private answer › Nope."))
    #expect(model.press(.enter) == [.act(.answer, id(2), text: "Nope.", isPrivate: true)])
    _ = model.press(.text("t"))
    model.type("Never mind")
    #expect(model.press(.escape).isEmpty && model.answering == nil)
  }

  @Test func liveUpdatesNeverMoveTheSelection() {
    var (driver, model) = Self.console()
    _ = model.press(.down)
    #expect(model.selection?.id == id(3))
    // Another presenter approves question 1 and the room votes 3 past 2: still on 3.
    driver.receiveDelta(
      from: 6, to: 7,
      [
        Self.q(1, "Pending approval", votes: 20, state: .live),
        Self.q(3, "Less voted", votes: 30, state: .live),
      ])
    model.update(state: driver.state)
    #expect(model.selection?.id == id(3))
    #expect(model.tabSummary == "Review 0 · [Live 3] · Answered 1 · Dismissed 1")
    // Dismissed by someone else: the selection takes its neighbour, in the same place.
    driver.receiveDelta(from: 8, to: 8, [Self.q(3, "Less voted", state: .dismissed)])
    model.update(state: driver.state)
    #expect(model.selection != nil && model.selection?.id != id(3))
  }

  @Test func theTopQuestionIsSelectedFromTheStartAndKeepsItsQuestion() {
    var (driver, model) = Self.console()
    #expect(model.selection?.id == id(2), "the top of Live")
    // The room reorders: the selection stays on its question, not on the top.
    driver.receiveDelta(from: 6, to: 6, [Self.q(3, "Less voted", votes: 30, state: .live)])
    model.update(state: driver.state)
    #expect(model.roomEntries.first?.id == id(3))
    #expect(model.selection?.id == id(2))
    // Esc: back to the top question.
    _ = model.press(.escape)
    #expect(model.selection?.id == id(3))
    // A list that empties has none; once it fills, its first question is selected.
    _ = model.press(.text("1"))
    #expect(model.selection?.id == id(1))
    driver.receiveDelta(from: 7, to: 7, [Self.q(1, "Pending approval", state: .live)])
    model.update(state: driver.state)
    #expect(model.roomEntries.isEmpty && model.selection == nil)
    #expect(model.press(.text("a")).isEmpty, "nothing to act on: a notice, no action")
    driver.receiveDelta(from: 8, to: 8, [Self.q(6, "Just asked", state: .review)])
    model.update(state: driver.state)
    #expect(model.selection?.id == id(6))
    #expect(model.press(.text("a")) == [.act(.approve, id(6), text: nil, isPrivate: false)])
  }

  @Test func quittingWithActionsNotSentAsksFirst() {
    var (driver, model) = Self.console()
    driver.apply(.disconnected(reason: "gone", retry: nil))
    driver.apply(.act(.dismiss, question: id(2), token: uuid(1)))
    model.update(state: driver.state)
    #expect(model.press(.text("q")).isEmpty && model.confirmingQuit)
    #expect(model.quitQuestion.hasPrefix("Quit with 1 action not sent?"))
    #expect(screen(model).contains("…"), "the pending action is marked")
  }
}
