import Foundation
import QnA
import QnATerminal
import TestSupport
import Testing

/// The room view: every question with votes, its keys, its order, a selection that stays
/// put while the room reorders.
@Suite("The room view")
struct RoomViewTests {
  init() { #expect(utf8Locale) }

  static func q(
    _ n: Int, _ content: String, votes: Int = 0, answered: Bool = false, mine: Bool? = nil,
    voted: Bool? = nil
  ) -> RoomQuestion {
    StateDriver.roomQuestion(
      n, content, votes: votes, answered: answered, mine: mine, voted: voted)
  }

  /// A room of five: one answered, one the attendee's, one the attendee voted for.
  static func busyRoom() -> StateDriver {
    var driver = onScreen()
    driver.enterRoom(
      questions: [
        q(1, "What is the roadmap?", votes: 7),
        q(2, "Is it open source?", votes: 12, answered: true),
        q(3, "How does it scale past one server?", votes: 3, voted: true),
        q(4, "Can I ask my own?", votes: 1, mine: true),
        q(5, "Brand new one"),
      ], seq: 5)
    return driver
  }

  func id(_ n: Int) -> UUID { uuid(n, group: 0x5E) }

  @Test func theRoomIsTheDefaultPopularFirstAnsweredSunk() {
    let model = Self.busyRoom().model(rows: 10)
    expectScreen(
      model,
      """
       qna  Room · popular  ws://127.0.…  ● connected · #000000c0
       ▲ 7       What is the roadmap?
       ▲ 3       How does it scale past one server?
       ▲ 1    ◆  Can I ask my own?
       ▲ 0       Brand new one
       ▲ 12    ✓ Is it open source?


       5 questions in the room · 1 voted
      Ask a question ›
      """)
    let frame = TerminalView.render(model)
    // The attendee's vote is highlighted; an answered question is dim.
    #expect(frame.grid[2, 1].style.color == .green)
    #expect(frame.grid[1, 1].style.color == nil)
    #expect(frame.grid[5, 11].style.dim)
  }

  @Test func theFooterCountsQuestionsNotPeople() {
    var driver = onScreen()
    driver.enterRoom(questions: [Self.q(1, "Only one")], seq: 1)
    #expect(screen(driver.model(rows: 8)).contains("\n 1 question in the room\n"))
    #expect(screen(Self.busyRoom().model(rows: 10)).contains("\n 5 questions in the room · "))
  }

  @Test func f2SortsByRecentAndTabShowsTheAttendeesOwnQuestions() {
    var driver = Self.busyRoom()
    driver.apply(.clock(.seconds(100)))
    var model = driver.model(rows: 9)
    _ = model.press(.function(2))
    expectScreen(
      model,
      """
       qna  Room · recent  ws://127.0.0…  ● connected · #000000c0
       ▲ 0       Brand new one
       ▲ 1    ◆  Can I ask my own?
       ▲ 3       How does it scale past one server?
       ▲ 12    ✓ Is it open source?
       ▲ 7       What is the roadmap?

       5 questions in the room · 1 voted
      Ask a question ›
      """)
    _ = model.press(.tab)
    #expect(model.listView == .mine)
    #expect(screen(model).hasPrefix(" qna  Mine"))
    #expect(screen(model).contains("No questions yet"))
    _ = model.press(.tab)
    #expect(model.listView == .room)
  }

  @Test func arrowsSelectAndTheVoteKeysVoteAndUnvote() {
    var model = Self.busyRoom().model(rows: 10)
    // No selection yet: a vote key says how to get one.
    #expect(model.press(.text("+")).isEmpty)
    #expect(model.localNotices.last?.text.contains("Select a question") == true)
    _ = model.press(.down)
    #expect(model.selection?.id == id(1))
    #expect(model.press(.text("+")) == [.vote(id(1), up: true)])
    _ = model.press(.down)
    #expect(model.press(.control("v")) == [.vote(id(3), up: false)], "already voted: unvote")
    // With text typed, "+" is text; Ctrl-V still votes.
    model.type("Why")
    #expect(model.press(.text("+")).isEmpty)
    #expect(model.editor.text == "Why+")
    #expect(model.press(.control("v")) == [.vote(id(3), up: false)])
    // Moving the selection keeps the text typed.
    _ = model.press(.up, .end, .home)
    #expect(model.editor.text == "Why+")
    #expect(model.selection?.id == id(1))
    _ = model.press(.end)
    #expect(model.selection?.id == id(2))
    _ = model.press(.escape)
    #expect(model.selection == nil)
  }

  @Test func theSelectionStaysOnItsRowWhileTheRoomReorders() {
    var driver = onScreen()
    driver.enterRoom(
      questions: (1...30).map { Self.q($0, "Question \($0)", votes: 100 - $0) }, seq: 1)
    var model = driver.model(rows: 12)
    // Select the fifth question, at the fifth row.
    for _ in 0..<5 { _ = model.press(.down) }
    #expect(model.selection?.id == id(5))
    let rowOf = { (model: TerminalModel, text: String) in
      screen(model).split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
        $0.hasSuffix(text)
      }
    }
    #expect(rowOf(model, "Question 5") == 5)
    // Question 20 overtakes everything; question 5 gets votes and stays fifth.
    driver.receiveDelta(
      from: 2, to: 3, [Self.q(20, "Question 20", votes: 500), Self.q(5, "Question 5", votes: 96)])
    model.update(state: driver.state)
    #expect(model.selection?.id == id(5))
    #expect(rowOf(model, "Question 5") == 5, "the selected question did not move on screen")
    // Now question 5 itself climbs to the top of the order: it stays where the eye is, and
    // the questions now above it are above, off screen if need be.
    driver.receiveDelta(from: 4, to: 4, [Self.q(5, "Question 5", votes: 1000)])
    model.update(state: driver.state)
    #expect(model.state.roomEntries(.popular).first?.id == id(5))
    #expect(rowOf(model, "Question 5") == 1, "nothing above it to keep its row")
    // A question that gains votes is marked for a moment.
    let frame = TerminalView.render(model)
    #expect(frame.grid[1, 1].style == Palette(colors: true).rising)
    model.now = model.now + .seconds(3)
    #expect(TerminalView.render(model).grid[1, 1].style != Palette(colors: true).rising)
    // The selected question leaving the room: the selection takes its neighbour.
    driver.receiveDelta(from: 5, to: 5, removed: [id(5)])
    model.update(state: driver.state)
    #expect(model.selection != nil && model.selection?.id != id(5))
  }

  @Test func pagingMovesAScreenfulAndLongQuestionsShowWholeWhenSelected() {
    var driver = onScreen()
    let long = String(repeating: "word ", count: 40)
    driver.enterRoom(
      questions: [Self.q(1, long, votes: 100)]
        + (2...40).map { Self.q($0, "Question \($0)", votes: 50 - $0) }, seq: 1)
    var model = driver.model(rows: 12)
    // Unselected, a long question shows three lines at most.
    #expect(screen(model).split(separator: "\n")[3].hasSuffix("…"))
    _ = model.press(.down)
    #expect(!screen(model).split(separator: "\n")[3].hasSuffix("…"))
    // The first PgDn goes to the bottom of the screen, the next one a screenful further.
    _ = model.press(.pageDown)
    let index = model.roomEntries.firstIndex { $0.id == model.selection?.id } ?? 0
    #expect(index >= 3, "a screenful down")
    #expect(!screen(model).contains("↑"))
    _ = model.press(.pageDown)
    #expect(screen(model).contains("↑↓ more"))
    _ = model.press(.pageUp, .pageUp, .pageUp)
    #expect(model.selection?.id == id(1))
  }

  @Test func slashSearchesTheRoomEnterKeepsItEscClearsIt() {
    var model = Self.busyRoom().model(rows: 10)
    _ = model.press(.text("/"))
    #expect(model.search != nil)
    model.type("SCALE")
    expectScreen(
      model,
      """
       qna  Room · popular  ws://127.0.…  ● connected · #000000c0
       ▲ 3       How does it scale past one server?






       5 questions in the room · 1 voted · 1 match
      Search the room › SCALE
      """)
    _ = model.press(.enter)
    #expect(model.search == nil && model.filter == "SCALE")
    #expect(model.roomEntries.count == 1)
    _ = model.press(.escape)
    #expect(model.filter.isEmpty && model.roomEntries.count == 5)
    // "//" types a question that starts with a slash.
    _ = model.press(.text("/"), .text("/"))
    #expect(model.search == nil && model.editor.text == "/")
    // Nothing matches: said so.
    _ = model.press(.control("u"), .text("/"))
    model.type("zzz")
    #expect(screen(model).contains("No question matches “zzz”"))
  }

  @Test func theQuestionBeingAnsweredIsPinnedAndTheBellRingsForOnesOwn() {
    var driver = Self.busyRoom()
    var model = driver.model(rows: 10)
    driver.receiveDelta(from: 6, to: 6, highlight: HighlightChange(id: id(1)))
    let someoneElses = model.update(state: driver.state)
    #expect(!someoneElses, "someone else's: no bell")
    expectScreen(
      model,
      """
       qna  Room · popular  ws://127.0.…  ● connected · #000000c0
       Now answering: What is the roadmap?
       ▲ 7       What is the roadmap?
       ▲ 3       How does it scale past one server?
       ▲ 1    ◆  Can I ask my own?
       ▲ 0       Brand new one
       ▲ 12    ✓ Is it open source?

       5 questions in the room · 1 voted
      Ask a question ›
      """)
    #expect(TerminalView.render(model).grid[1, 3].style == Palette(colors: true).highlight)
    driver.receiveDelta(from: 7, to: 7, highlight: HighlightChange(id: id(4)))
    let own = model.update(state: driver.state)
    #expect(own, "the attendee's own: the bell")
    #expect(screen(model).contains("Now answering your question: Can I ask my own?"))
    // The banner shows in the Mine view too.
    _ = model.press(.tab)
    #expect(screen(model).contains("Now answering your question"))
  }

  @Test func aServerWithoutTheRoomShowsTheAttendeesOwnQuestionsAndTabSaysWhy() {
    var driver = onScreen()
    driver.connect()
    driver.asked("Only mine")
    var model = driver.model(rows: 8)
    #expect(model.listView == .mine)
    #expect(screen(model).hasPrefix(" qna  ws://"))
    _ = model.press(.tab)
    #expect(model.listView == .mine)
    #expect(model.localNotices.last?.text == "This server shows only your own questions.")
    // Arrows scroll, "+" and "/" are text there.
    model.type("+/")
    #expect(model.editor.text == "+/")
  }

  @Test func beforeTheSnapshotTheRoomSaysItIsJoining() {
    var driver = onScreen()
    driver.apply(.identity(attendee: StateDriver.attendee, name: nil))
    driver.connect(extensions: StateDriver.roomExtensions)
    #expect(screen(driver.model(rows: 8)).contains("Joining the room…"))
  }
}
