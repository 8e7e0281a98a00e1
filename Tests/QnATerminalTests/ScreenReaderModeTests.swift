import Foundation
import QnA
import QnATerminal
import TestSupport
import Testing

/// `--screen-reader`: a screen reader speaks whatever the terminal writes, so nothing is
/// written that is not news: no timer, no glyph, the room redrawn on a key (or for the
/// reader's own doing), events announced one line each in the footer.
@Suite("Screen-reader mode")
struct ScreenReaderModeTests {
  init() { #expect(utf8Locale) }

  typealias Room = RoomViewTests
  static let glyphs = HelpOverlay.glyphs

  static func hasGlyph(_ model: TerminalModel) -> Bool {
    screen(model).contains(where: glyphs.contains)
  }

  @Test func wordsInsteadOfGlyphsAndNoTimedChange() {
    var driver = Room.busyRoom()
    driver.apply(.roundTrip(.milliseconds(42)))
    var model = driver.model(rows: 12, columns: 80, screenReader: true)
    expectScreen(
      model,
      """
       qna  Room · popular  ws://127.0.0.1:8080/socket                      connected

       7 votes: What is the roadmap?
       3 votes, voted: How does it scale past one server?
       1 vote, yours: Can I ask my own?
       0 votes: Brand new one
       12 votes, answered: Is it open source?


       5 questions in the room · 1 voted

      Ask a question:
      """)
    #expect(model.nextChange == nil)
    // The sighted screen has the glyphs, the round trip, and the rising marks on a timer.
    var sighted = driver.model(rows: 12, columns: 80)
    #expect(Self.hasGlyph(sighted) && screen(sighted).contains("42 ms"))
    driver.receiveDelta(from: 6, to: 6, [Room.q(5, "Brand new one", votes: 9)])
    sighted.update(state: driver.state)
    #expect(sighted.nextChange != nil, "a rising mark ends on a timer")
    model.update(state: driver.state)
    #expect(model.nextChange == nil)
    // The help: no box, no legend of glyphs; the cursor on its first key.
    _ = model.press(.function(1))
    #expect(!Self.hasGlyph(model) && !screen(model).contains("┌"))
    #expect(screen(model).contains(" Enter: ask the question typed"))
    #expect(TerminalView.render(model).cursor! == (2, 1))
  }

  @Test func aVoteStormLeavesTheScreenAloneUntilAKey() {
    var driver = Room.busyRoom()
    var model = driver.model(rows: 12, columns: 80, screenReader: true)
    _ = model.press(.down)
    let before = TerminalView.render(model)
    for round in 1...20 {
      driver.receiveDelta(
        from: 5 + round, to: 5 + round,
        [
          Room.q(5, "Brand new one", votes: round),
          Room.q(1, "What is the roadmap?", votes: 7 + round),
        ])
      model.update(state: driver.state)
      let frame = TerminalView.render(model)
      #expect(frame.cursor! == before.cursor!, "the cursor stays")
      // Only the footer says, once, that the room changed.
      #expect(Array(frame.grid.lines.prefix(9)) == Array(before.grid.lines.prefix(9)))
    }
    #expect(screen(model).contains("the room changed: any key shows it"))
    // A key brings the room up to date before it acts.
    _ = model.press(.down)
    #expect(screen(model).contains("27 votes: What is the roadmap?"))
    #expect(screen(model).contains("20 votes: Brand new one"))
    #expect(!screen(model).contains("the room changed"))
  }

  @Test func theReadersOwnVoteShowsAtOnce() {
    var driver = Room.busyRoom()
    var model = driver.model(rows: 12, columns: 80, screenReader: true)
    _ = model.press(.down)
    #expect(model.press(.text("+")) == [.vote(Room().id(1), up: true)])
    driver.vote(1, token: 1)
    model.update(state: driver.state)
    #expect(screen(model).contains("7 votes, voted, vote not confirmed yet: What is the roadmap?"))
    driver.voteAnswered(1, token: 1, voted: true, votes: 8)
    model.update(state: driver.state)
    #expect(screen(model).contains("votes, voted: What is the roadmap?"))
  }

  @Test func eventsAreAnnouncedInTheFooterAndF3PutsTheCursorThere() {
    var driver = onScreen()
    driver.connectToProjectServer(connectionID)
    let id = driver.asked("Will the slides be online?")
    var model = driver.model(rows: 10, columns: 80, screenReader: true)
    driver.apply(
      .received(.questionAnswer(QuestionAnswer(questionId: id, text: "Yes, tonight."))))
    model.update(state: driver.state)
    let footer = TerminalView.render(model).grid.lines[8]
    #expect(
      footer.contains("Your question “Will the slides be online?” was answered: Yes, tonight."))
    // The announcement stays: no timer takes it away.
    model.now = model.now + .seconds(60)
    #expect(TerminalView.render(model).grid.lines[8] == footer)
    #expect(TerminalView.render(model).cursor?.row == 9, "nothing moved the cursor")
    _ = model.press(.function(3))
    #expect(TerminalView.render(model).cursor! == (8, 1))
    _ = model.press(.function(3))
    #expect(TerminalView.render(model).cursor?.row == 9, "F3 again, or any key: back")
  }

  @Test func aReconnectionsWaitIsSaidOnce() {
    var driver = onScreen()
    driver.connectToProjectServer(connectionID)
    var model = driver.model(rows: 10, columns: 80, screenReader: true)
    driver.apply(
      .disconnected(reason: "connection reset", retry: .init(after: .seconds(8), attempt: 1)))
    model.update(state: driver.state)
    #expect(screen(model).contains("reconnecting in 8 s (attempt 1)"))
    #expect(model.nextChange == nil)
    model.now = model.now + .seconds(5)
    #expect(screen(model).contains("reconnecting in 8 s (attempt 1)"), "no countdown")
    #expect(screen(model).contains("Connection lost: reconnecting in 8 s."), "said once")
    var sighted = driver.model(rows: 10, columns: 80)
    sighted.now = sighted.now + .seconds(5)
    #expect(screen(sighted).contains("reconnecting in 3 s"))
    driver.connectToProjectServer(connectionID)
    model.update(state: driver.state)
    #expect(screen(model).contains("Connected again."))
  }

  @Test func arrowsFromTheLineTypedGoBackToTheSelectedQuestionFirst() {
    var model = Room.busyRoom().model(rows: 12, columns: 80, screenReader: true)
    _ = model.press(.down, .down)
    let selected = model.selection?.id
    model.type("Why")
    _ = model.press(.down)
    #expect(model.selection?.id == selected, "the one it was on, heard again")
    #expect(TerminalView.render(model).cursor?.column == 0)
    _ = model.press(.down)
    #expect(model.selection?.id != selected)
  }

  @Test func thePresenterHearsOfQuestionsInReview() {
    var (driver, model) = PresenterConsoleTests.console()
    model.options.screenReader = true
    let question = PresenterConsoleTests.q(40, "Is this on topic?", state: .review)
    driver.receiveDelta(from: 6, to: 6, [question])
    model.update(state: driver.state)
    #expect(screen(model).contains("New question in review: Is this on topic?"))
  }

  @Test func anAnnouncementStaysThroughLaterEventsAndOneUpdateSaysEverything() {
    var driver = Room.busyRoom()
    var model = driver.model(rows: 12, columns: 120, screenReader: true)
    // An engine notice (a vote on one's own question), then a ping a minute later: the
    // engine drops its notice then, the footer keeps the announcement.
    driver.apply(.vote(question: Room().id(4), up: true, token: uuid(9, group: 0x70)))
    model.update(state: driver.state)
    let footer = { TerminalView.render(model).grid.lines[10] }
    #expect(footer().contains("That question is yours"))
    driver.apply(.clock(driver.state.now + .seconds(60)))
    driver.apply(.roundTrip(.milliseconds(5)))
    model.update(state: driver.state)
    #expect(!driver.state.notices.contains { $0.text.contains("yours") })
    #expect(footer().contains("That question is yours"), "no line vanishes without a key")
    // Two events in one update: both said.
    driver.receiveDelta(
      from: 6, to: 6, [Room.q(4, "Can I ask my own?", votes: 1, answered: true, mine: true)],
      highlight: HighlightChange(id: Room().id(1)))
    model.update(state: driver.state)
    #expect(footer().contains("Now answering: What is the roadmap?"))
  }

  @Test func aKeyAfterTheSelectedQuestionLeftOnlyShowsTheRoom() {
    var driver = Room.busyRoom()
    var model = driver.model(rows: 12, columns: 80, screenReader: true)
    _ = model.press(.down)
    #expect(model.selection?.id == Room().id(1))
    driver.receiveDelta(from: 6, to: 6, removed: [Room().id(1)])
    model.update(state: driver.state)
    #expect(model.roomIsStale)
    // "+" would vote for whatever took its place, unheard: it only brings the room up to date.
    #expect(model.press(.text("+")) == [])
    #expect(!screen(model).contains("What is the roadmap?"))
    #expect(model.press(.text("+")) != [], "the next key acts")
  }

  @Test func thePresentersOwnActionShowsAtOnceInWords() {
    var (driver, model) = PresenterConsoleTests.console()
    model.options.screenReader = true
    _ = model.press(.down)
    let selected = try! #require(model.selection?.id)
    guard case .act(let kind, let id, _, _) = model.press(.text("h")).first else {
      Issue.record("no action")
      return
    }
    driver.apply(.act(kind, question: id, token: uuid(77)))
    model.update(state: driver.state)
    #expect(id == selected)
    #expect(screen(model).contains("action not confirmed yet"))
  }

  @Test func messagesKeepTheirArgumentsInAnyOrder() {
    #expect(MessageFormat.apply("%s and %d", ["a", "2"]) == "a and 2")
    #expect(MessageFormat.apply("%2$s before %1$s", ["a", "b"]) == "b before a")
    #expect(MessageFormat.apply("100%% of %s", ["x"]) == "100% of x")
    #expect(MessageFormat.apply("%s %s", ["only"]) == "only ")
    #expect(MessageFormat.apply("50%", []) == "50%")
    #expect(MessageFormat.apply("50% off %s", ["x"]) == "50% off x")
    #expect(MessageFormat.apply("%x", []) == "%x")
    #expect(
      Message("Too long: %1$d characters, at most %2$d.", "12", "10").text
        == "Too long: 12 characters, at most 10.")
  }
}
