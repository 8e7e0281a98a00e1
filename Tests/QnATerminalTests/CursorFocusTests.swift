import Foundation
import QnA
import QnATerminal
import TestSupport
import Testing

/// The cursor is the focus: screen readers and braille displays follow the terminal's cursor,
/// not reverse video, so it sits on the selected question's first line after a move in a
/// list, on the help while it shows, on the quit question, and on the input line otherwise.
@Suite("The cursor follows the focus")
struct CursorFocusTests {
  init() { #expect(utf8Locale) }

  static func cursor(_ model: TerminalModel) -> (row: Int, column: Int)? {
    TerminalView.render(model).cursor
  }

  /// The row showing `text`.
  static func row(_ model: TerminalModel, _ text: String) -> Int? {
    TerminalView.render(model).grid.lines.firstIndex { $0.contains(text) }
  }

  @Test func theRoomsSelectionHasTheCursorUntilSomethingIsTyped() throws {
    var model = RoomViewTests.busyRoom().model(rows: 10)
    #expect(Self.cursor(model)?.row == 9, "nothing selected: the input line")
    _ = model.press(.down)
    #expect(Self.cursor(model)! == (Self.row(model, "What is the roadmap?")!, 0))
    _ = model.press(.down)
    #expect(Self.cursor(model)! == (Self.row(model, "How does it scale")!, 0))
    // Voting keeps the focus where it is.
    _ = model.press(.text("+"))
    #expect(Self.cursor(model)?.row == Self.row(model, "How does it scale"))
    model.type("Why")
    #expect(Self.cursor(model)! == (9, 20), "typing: after the text typed")
    _ = model.press(.end)
    #expect(
      Self.cursor(model)?.row == Self.row(model, "Is it open source?"), "End moves in the list")
    _ = model.press(.escape)
    #expect(Self.cursor(model)?.row == 9, "Esc: no selection")
  }

  @Test func aLongSelectedQuestionHasTheCursorOnItsFirstLine() throws {
    var driver = onScreen()
    let long = "A question long enough to wrap onto a second line of the room view here"
    driver.enterRoom(
      questions: [RoomViewTests.q(1, long, votes: 2), RoomViewTests.q(2, "Short")], seq: 2)
    var model = driver.model(rows: 10, columns: 50)
    _ = model.press(.down)
    #expect(Self.cursor(model)! == (Self.row(model, "A question long")!, 0))
  }

  @Test func mineScrolledHasTheCursorOnItsTopLineAndFollowingOnTheInput() throws {
    var driver = onScreen()
    driver.connectToProjectServer(connectionID)
    for index in 1...8 { _ = driver.asked("Own question \(index)") }
    var model = driver.model(rows: 7)
    #expect(Self.cursor(model)?.row == 6, "following the newest")
    _ = model.press(.up)
    #expect(Self.cursor(model)! == (model.listTop, 0))
    _ = model.press(.end)
    #expect(Self.cursor(model)?.row == 6)
  }

  @Test func thePresentersSelectionHasTheCursorExceptWhileAnAnswerIsTyped() throws {
    var (_, model) = PresenterConsoleTests.console()
    // The top question is selected from the start: the cursor is on it before any key.
    #expect(Self.cursor(model)! == (Self.row(model, "Most voted")!, 0))
    _ = model.press(.down)
    #expect(Self.cursor(model)! == (Self.row(model, "Less voted")!, 0))
    _ = model.press(.text("t"))
    #expect(Self.cursor(model)?.row == model.rows - 1, "the answer's line")
  }

  @Test func theHelpAndTheQuitQuestionHaveTheCursorAndGiveTheFocusBack() throws {
    var driver = RoomViewTests.busyRoom()
    // A question not yet delivered: quitting asks first.
    _ = driver.ask("Not sent yet")
    var model = driver.model(rows: 24)
    for opener in [Key.function(1), .text("?")] {
      _ = model.press(.down, opener)
      let help = try #require(Self.cursor(model))
      let line = TerminalView.render(model).grid.lines[help.row]
      #expect(line.dropFirst(help.column).hasPrefix("Enter"), "on the first key: \(line)")
      _ = model.press(.escape)
      #expect(
        Self.cursor(model)! == (Self.row(model, "What is the roadmap?")!, 0), "back on the list")
      _ = model.press(.escape)
    }
    _ = model.press(.down, .control("c"))
    #expect(model.confirmingQuit)
    #expect(Self.cursor(model)?.row == model.rows - 2, "on the quit question")
    _ = model.press(.text("n"))
    #expect(
      Self.cursor(model)! == (Self.row(model, "What is the roadmap?")!, 0), "no: back on the list")
  }

  @Test func aPasteTakesTheFocusToTheLineTyped() {
    var model = RoomViewTests.busyRoom().model(rows: 10)
    _ = model.press(.down)
    #expect(Self.cursor(model)?.row != 9)
    _ = model.press(.pasteStart, .text("pasted"), .pasteEnd)
    #expect(Self.cursor(model)! == (9, 23))
  }
}
