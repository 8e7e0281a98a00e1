import Foundation
import QnA
import QnATerminal
import Testing

@Suite("The pure view, as screens")
struct ViewSnapshotTests {
  /// Before each test: widths need the UTF-8 locale, whichever test runs first.
  init() { #expect(utf8Locale) }

  @Test func emptyStateBeforeConnecting() {
    expectScreen(
      onScreen().model(rows: 8),
      """
       qna  ws://127.0.0.1:8080/socket                ● starting…

       No questions yet. Type one below and press Enter; F1 or ? …



       0 asked · 0 answered · 0 pending
      Ask a question ›
      """)
  }

  @Test func connectingShowsTheAttempt() {
    var scenario = onScreen()
    scenario.apply(.connecting(attempt: 3))
    let model = scenario.model(rows: 6)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket  ● connecting (attempt 3)…

       No questions yet. Type one below and press Enter; F1 or ? …

       0 asked · 0 answered · 0 pending
      Ask a question ›
      """)
    #expect(TerminalView.render(model).grid[0, 56].style.color == .yellow)
  }

  @Test func everyStatusWithItsColour() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.apply(.roundTrip(.microseconds(2_500)))
    scenario.asked("Is it answered?", answered: true)
    scenario.asked("Still waiting?")
    scenario.refuse(scenario.ask("Refused one"), reason: "Too many questions, wait a bit")
    scenario.ask("On the wire")
    scenario.apply(.disconnected(reason: "connection reset", retry: nil))
    scenario.ask("Typed offline")
    scenario.apply(.clock(.seconds(200)))
    let model = scenario.model()
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket  ● offline · connection r…
       Answered    Is it answered?
       Unanswered  Still waiting?
       Failed      Refused one
                   ↳ Too many questions, wait a bit (Ctrl-T asks
                   again, Ctrl-X discards)
       Queued      On the wire
       Queued      Typed offline


       5 asked · 1 answered · 2 pending · 1 failed
      Ask a question ›
      """)
    let grid = TerminalView.render(model).grid
    #expect(grid[1, 1].style.color == .green)
    #expect(grid[2, 1].style.color == .red)
    #expect(grid[3, 1].style.color == .red && grid[3, 1].style.bold)
    #expect(grid[6, 1].style.color == .yellow)
  }

  @Test func connectedWithRoundTripAndNotice() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.apply(.roundTrip(.milliseconds(23)))
    scenario.asked("First")
    scenario.ask("On the wire")
    let model = scenario.model(rows: 6)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080…  ● connected · 23 ms · #1a2b3c4d
       Unanswered  First
       Sending…    On the wire

       2 asked · 0 answered · 1 pending │ Question created
      Ask a question ›
      """)
  }

  @Test func stalledReconnectingAndOfflineHeaders() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.apply(.stalled(waited: .milliseconds(4_300)))
    #expect(
      screen(scenario.model(rows: 6)).split(separator: "\n")[0]
        == " qna  ws://127.0.0…  ● stalled: no pong for 4 s · #1a2b3c4d")
    scenario.apply(
      .disconnected(
        reason: "ping timeout", retry: .init(after: .milliseconds(2_500), attempt: 2)))
    var model = scenario.model(rows: 6, columns: 80)
    #expect(
      screen(model).split(separator: "\n")[0]
        == " qna  ws://127.0.0.1:8080/socket  ● reconnecting in 3 s (attempt 2) · ping tim…")
    #expect(model.nextChange == scenario.state.now + .milliseconds(500))
    model.now = scenario.state.now + .milliseconds(600)
    #expect(screen(model).split(separator: "\n")[0].contains("reconnecting in 2 s (attempt 2)"))
    scenario.apply(.disconnected(reason: "server went away", retry: nil))
    #expect(
      screen(scenario.model(rows: 6)).split(separator: "\n")[0]
        == " qna  ws://127.0.0.1:8080/socket  ● offline · server went …")
  }

  @Test func longQuestionsWrapAtWordsWithAHangingIndent() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.asked(
      "How does the engine decide when a connection is dead, and what happens to the "
        + "questions typed while it reconnects?")
    scenario.asked("Supercalifragilisticexpialidociousandthensomemoreletters")
    expectScreen(
      scenario.model(rows: 9),
      """
       qna  ws://127.0.0.1:8080/socket    ● connected · #1a2b3c4d
       Unanswered  How does the engine decide when a connection
                   is dead, and what happens to the questions
                   typed while it reconnects?
       Unanswered  Supercalifragilisticexpialidociousandthensomem
                   oreletters

       2 asked · 0 answered · 0 pending │ Question created
      Ask a question ›
      """)
  }

  @Test func wideCharactersEmojiAndCombiningMarks() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.asked("日本語の質問はどのように表示されますか？折り返しも正しく")
    scenario.asked("Emoji 👍🏽 and 🎉 count two columns each 🚀🚀🚀🚀🚀🚀🚀🚀🚀")
    scenario.asked("Combining: e\u{301}le\u{300}ve, n\u{303}o")
    let model = scenario.model(rows: 9)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket    ● connected · #1a2b3c4d
       Unanswered  日本語の質問はどのように表示されますか？折り返
                   しも正しく
       Unanswered  Emoji 👍🏽 and 🎉 count two columns each
                   🚀🚀🚀🚀🚀🚀🚀🚀🚀
       Unanswered  Combining: e\u{301}le\u{300}ve, n\u{303}o

       3 asked · 0 answered · 0 pending │ Question created
      Ask a question ›
      """)
    // Every row is exactly as wide as the screen, counting wide cells twice.
    let grid = TerminalView.render(model).grid
    for row in 0..<grid.rows {
      let text = (0..<grid.columns).map { grid[row, $0].text }.joined()
      #expect(TextWidth.of(text) == grid.columns)
    }
  }

  @Test func hostileTextIsShownEscapedNeverInterpreted() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.asked("Hi\u{1B}[2J\u{1B}]0;pwned\u{07} bell\r\nnext \u{202E}reversed\u{9B}31m")
    let model = scenario.model(rows: 7)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket    ● connected · #1a2b3c4d
       Unanswered  Hi\\e[2J\\e]0;pwned\\x07 bell\\r\\nnext
                   \\u{202E}reversed\\x9B31m


       1 asked · 0 answered · 0 pending │ Question created
      Ask a question ›
      """)
    for cell in TerminalView.render(model).grid.cells {
      #expect(
        !cell.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
  }

  @Test func manyQuestionsFollowTheNewestAndScroll() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    for number in 1...30 { scenario.asked("Question number \(number)", answered: number % 3 == 0) }
    var model = scenario.model(rows: 8)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket    ● connected · #1a2b3c4d
       Unanswered  Question number 26
       Answered    Question number 27
       Unanswered  Question number 28
       Unanswered  Question number 29
       Answered    Question number 30
       30 asked · 10 answered · 0 pending │ Question created
      Ask a question ›
      """)
    _ = model.press(.pageUp)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket    ● connected · #1a2b3c4d
       Unanswered  Question number 22
       Unanswered  Question number 23
       Answered    Question number 24
       Unanswered  Question number 25
       Unanswered  Question number 26
       Question created                         ↓ more below: End
      Ask a question ›
      """)
    _ = model.press(.home)
    #expect(screen(model).split(separator: "\n")[1].hasSuffix("Question number 1"))
    _ = model.press(.down, .down)
    #expect(screen(model).split(separator: "\n")[1].hasSuffix("Question number 3"))
    _ = model.press(.end)
    #expect(model.scroll == .following)
    // A new question while scrolled up does not move the view.
    _ = model.press(.wheelUp)
    let listRows = { (model: TerminalModel) in screen(model).split(separator: "\n")[1...5] }
    let before = listRows(model)
    scenario.asked("Newest")
    model.update(state: scenario.state)
    #expect(listRows(model) == before)
  }

  @Test func helpOverlayListsEveryKey() {
    var model = onScreen().model(rows: 27, columns: 70)
    _ = model.press(.text("?"))
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket                          ● starting…
        ┌───────────────────────────── Keys ─────────────────────────────┐
        │ Enter                    ask the question typed                │
        │ Tab                      the room / your own questions         │
        │ ↑ ↓ PgUp PgDn Home End   select in the room; scroll your own   │
        │ + (empty line), Ctrl-V   vote / unvote the selected question   │
        │ F2, Ctrl-O               sort the room: popular / recent       │
        │ / (empty line)           search the room; Esc shows it all     │
        │ /#label                  only the questions under that label   │
        │ Alt-L, F4                ask under the next label, or none     │
        │ F5, Alt-P                answer a poll (again: the next one)   │
        │ ← → Ctrl-B Ctrl-F        move by character                     │
        │ Alt-B Alt-F              move by word                          │
        │ Ctrl-A Ctrl-E            start / end of the line               │
        │ Backspace Delete         delete a character                    │
        │ Ctrl-U Ctrl-K Ctrl-W     delete to the start / end, a word     │
        │ Ctrl-P Ctrl-N            previous / next question asked        │
        │ Ctrl-T Ctrl-X            ask again / drop the last refused one │
        │ Ctrl-R Ctrl-L            reconnect now / redraw the screen     │
        │ F1, ? (empty line)       this help; ↑ ↓ scroll, Esc closes     │
        │ Ctrl-C, Ctrl-D (empty)   quit                                  │
        │ F3                       the cursor on the last notice         │
        │ ▲ 12                     votes; highlighted once you voted     │
        │ ◆ ✓                      your question · answered              │
        └────────────────────────────────────────────────────────────────┘
       0 asked · 0 answered · 0 pending
      Ask a question ›
      """)
    // The cursor on the first key, for screen readers (`CursorFocusTests`).
    #expect(TerminalView.render(model).cursor! == (2, 4))
    _ = model.press(.escape)
    #expect(!model.showsHelp)
  }

  @Test func theHelpScrollsOnASmallTerminal() {
    var model = onScreen().model(rows: 12, columns: 60)
    _ = model.press(.function(1))
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket                ● starting…
       ┌────────────────── Keys (↑ ↓ scroll) ───────────────────┐
       │ Enter                    ask the question typed        │
       │ Tab                      the room / your own questions │
       │ ↑ ↓ PgUp PgDn Home End   select in the room; scroll y… │
       │ + (empty line), Ctrl-V   vote / unvote the selected q… │
       │ F2, Ctrl-O               sort the room: popular / rec… │
       │ / (empty line)           search the room; Esc shows i… │
       │ /#label                  only the questions under tha… │
       └───────────────────────────────────────── ↓ more below ─┘
       0 asked · 0 answered · 0 pending
      Ask a question ›
      """)
    _ = model.press(.down, .down)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket                ● starting…
       ┌────────────────── Keys (↑ ↓ scroll) ───────────────────┐
       │ ↑ ↓ PgUp PgDn Home End   select in the room; scroll y… │
       │ + (empty line), Ctrl-V   vote / unvote the selected q… │
       │ F2, Ctrl-O               sort the room: popular / rec… │
       │ / (empty line)           search the room; Esc shows i… │
       │ /#label                  only the questions under tha… │
       │ Alt-L, F4                ask under the next label, or… │
       │ F5, Alt-P                answer a poll (again: the ne… │
       └────────────────────────────── ↑↓ more above and below ─┘
       0 asked · 0 answered · 0 pending
      Ask a question ›
      """)
    // The cursor stays on the first key shown, for a screen reader to read it.
    #expect(TerminalView.render(model).cursor! == (2, 3))
    // End: the last keys, and no further.
    _ = model.press(.end, .down, .wheelDown)
    #expect(model.helpScroll == 15)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket                ● starting…
       ┌────────────────── Keys (↑ ↓ scroll) ───────────────────┐
       │ Ctrl-T Ctrl-X            ask again / drop the last re… │
       │ Ctrl-R Ctrl-L            reconnect now / redraw the s… │
       │ F1, ? (empty line)       this help; ↑ ↓ scroll, Esc c… │
       │ Ctrl-C, Ctrl-D (empty)   quit                          │
       │ F3                       the cursor on the last notice │
       │ ▲ 12                     votes; highlighted once you … │
       │ ◆ ✓                      your question · answered      │
       └───────────────────────────────────────── ↑ more above ─┘
       0 asked · 0 answered · 0 pending
      Ask a question ›
      """)
    // A page is what shows less one key; Home and ↑ stop at the first.
    _ = model.press(.pageUp)
    #expect(model.helpScroll == 9)
    _ = model.press(.home, .up, .pageUp)
    #expect(model.helpScroll == 0 && model.showsHelp, "the scroll keys leave it open")
    // Any other key closes it (and is not typed); it opens again at its top.
    _ = model.press(.pageDown, .text("x"))
    #expect(!model.showsHelp && model.editor.isEmpty)
    _ = model.press(.text("?"))
    #expect(model.showsHelp && model.helpScroll == 0)
    // A taller terminal: all of it, nothing to scroll.
    model.resize(rows: 27, columns: 70)
    _ = model.press(.down)
    #expect(model.helpScroll == 0)
    #expect(!screen(model).contains("more below") && screen(model).contains("─ Keys ─"))
  }

  @Test func theHelpScrollsForAScreenReaderAndInTheConsole() {
    var reader = onScreen().model(rows: 8, columns: 60, screenReader: true)
    _ = reader.press(.function(1))
    #expect(screen(reader).contains(" Keys (↑ ↓ scroll) · more below"))
    #expect(screen(reader).contains(" Enter: ask the question typed"))
    _ = reader.press(.end)
    // The legend of glyphs is not among its lines: F3 is the last.
    #expect(screen(reader).contains(" Keys (↑ ↓ scroll) · more above"))
    #expect(screen(reader).contains(" F3: the cursor on the last notice"))
    #expect(!screen(reader).contains("Enter: ask"))
    #expect(TerminalView.render(reader).cursor! == (2, 1))

    var (_, console) = PresenterConsoleTests.console()
    let selected = console.selection
    _ = console.press(.text("?"))
    #expect(!screen(console).contains("an action the server"))
    _ = console.press(.end)
    #expect(screen(console).contains("an action the server"))
    #expect(screen(console).contains("↑ more above"))
    #expect(console.selection == selected, "the help's keys move nothing else")
    _ = console.press(.escape)
    #expect(!console.showsHelp && console.selection == selected)
  }

  @Test func tooSmallTerminalShowsOneLine() {
    expectScreen(
      onScreen().model(rows: 4, columns: 60),
      """
      Too small: 60×4 (qna needs 40×6)



      """)
    expectScreen(
      onScreen().model(rows: 10, columns: 30),
      """
      Too small: 30×10 (qna needs 4…









      """)
  }

  @Test func monochromeUsesAttributesOnly() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.asked("Answered", answered: true)
    scenario.asked("Waiting")
    scenario.apply(.clock(.seconds(200)))
    let model = scenario.model(rows: 6, colors: false)
    let grid = TerminalView.render(model).grid
    #expect(grid.cells.allSatisfy { $0.style.color == nil })
    #expect(grid[2, 1].style.bold)  // Unanswered stands out
    #expect(screen(model) == screen(scenario.model(rows: 6, colors: true)))
  }

  @Test func justAnsweredIsHighlightedBriefly() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.asked("Quick one", answered: true)
    var model = scenario.model(rows: 6)
    #expect(TerminalView.render(model).grid[1, 1].style.reverse)
    #expect(model.nextChange == scenario.state.now + .seconds(3))
    model.now = scenario.state.now + .seconds(3)
    #expect(!TerminalView.render(model).grid[1, 1].style.reverse)
    // Only the notice's end is left to wait for.
    #expect(model.nextChange == scenario.state.now + .seconds(5))
  }

  @Test func longInputScrollsSidewaysAndCountsNearTheLimit() {
    var model = onScreen(maxLength: 60).model(rows: 6, columns: 50)
    model.type(String(repeating: "abcdefghij", count: 5))
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket      ● starting…

       No questions yet. Type one below and press Enter…

       0 asked · 0 answered · 0 pending
      Ask a question › fghijabcdefghijabcdefghij  50/60
      """)
    let cursor = TerminalView.render(model).cursor
    #expect(cursor?.row == 5)
    _ = model.press(.control("a"))
    #expect(TerminalView.render(model).grid.lines[5].hasPrefix("Ask a question › abcdefghij"))
    #expect(TerminalView.render(model).cursor?.column == 17)
  }

  @Test func atTheMinimumSizeHelpNoticesAndTheQuitQuestionStillShow() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.refuse(scenario.ask("Too many"), reason: "Rate limited: wait a few seconds")
    var model = scenario.model(rows: 6, columns: 40)
    let footer = screen(model).split(separator: "\n")[4]
    #expect(footer.hasPrefix(" Rate limited"))
    _ = model.press(.function(1))
    let help = screen(model).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(help[1].contains("Keys (↑ ↓ scroll)"))
    #expect(help[2].contains("Enter") && help[2].contains("ask the"))
    _ = model.press(.escape)
    scenario.apply(.disconnected(reason: "gone", retry: nil))
    scenario.ask("Queued")
    model = scenario.model(rows: 24, columns: 80)
    _ = model.press(.control("c"))
    // The refused question counts: it is kept too, until retried or discarded.
    #expect(
      screen(model).contains(
        " Quit with 2 questions not sent (1 refused)? y/n (kept for the next time qna"))
  }

  @Test func questionsWaitingOutARefusalCountDown() throws {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    scenario.asked("Stored")
    let waiting = scenario.ask("Over the limit")
    scenario.ask("Behind it")
    scenario.refuse(waiting, reason: "Too many questions at once.", retryAfter: 4.2)
    var model = scenario.model(rows: 7)
    expectScreen(
      model,
      """
       qna  ws://127.0.0.1:8080/socket    ● connected · #1a2b3c4d
       Unanswered  Stored
       Waiting 5 s Over the limit
       Sending…    Behind it

       3 asked · 0 answered · 2 pending │ Too many questions at …
      Ask a question ›
      """)
    let tick = try #require(model.nextChange)
    let error = tick - .milliseconds(100_200)
    #expect(error < .milliseconds(1) && error > .milliseconds(-1), "when 5 s becomes 4 s")
    model.now = .seconds(104)
    #expect(screen(model).contains(" Waiting 1 s Over the limit"))
    #expect(TerminalView.render(model).grid[2, 1].style.color == .yellow)
    // Minutes past 99 s keep the label's width.
    scenario.refuse(waiting, reason: "later", retryAfter: 300)
    #expect(screen(scenario.model(rows: 7)).contains(" Waiting 5 m Over the limit"))
  }
}
