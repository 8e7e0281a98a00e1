import QnA
import QnATerminal
import Testing

/// `"hel|lo"`: the text with the cursor where the bar is.
func editor(_ marked: String) -> LineEditor {
  let index = marked.firstIndex(of: "|")!
  var text = marked
  text.remove(at: index)
  return LineEditor(text, cursor: marked.distance(from: marked.startIndex, to: index))
}

func marked(_ editor: LineEditor) -> String {
  var characters = editor.characters
  characters.insert("|", at: editor.cursor)
  return String(characters)
}

@Suite("The line editor")
struct LineEditorTests {
  @Test(arguments: [
    ("hel|lo", "left", "he|llo"), ("|hello", "left", "|hello"), ("hel|lo", "right", "hell|o"),
    ("hel|lo", "start", "|hello"), ("hel|lo", "end", "hello|"),
    ("one two| three", "wordLeft", "one |two three"), ("one |two", "wordLeft", "|one two"),
    ("one| two three", "wordRight", "one two| three"), ("hel|lo", "backspace", "he|lo"),
    ("|hello", "backspace", "|hello"), ("hel|lo", "delete", "hel|o"),
    ("hello|", "delete", "hello|"),
    ("hel|lo", "killStart", "|lo"), ("hel|lo", "killEnd", "hel|"),
    ("one two  |three", "killWord", "one |three"), ("日本|語", "backspace", "日|語"),
    ("e\u{301}|x", "left", "|e\u{301}x"),
  ])
  func operations(before: String, operation: String, after: String) {
    var line = editor(before)
    switch operation {
    case "left": line.moveLeft()
    case "right": line.moveRight()
    case "start": line.moveToStart()
    case "end": line.moveToEnd()
    case "wordLeft": line.moveWordLeft()
    case "wordRight": line.moveWordRight()
    case "backspace": line.deleteBackward()
    case "delete": line.deleteForward()
    case "killStart": line.deleteToStart()
    case "killEnd": line.deleteToEnd()
    case "killWord": line.deleteWordBackward()
    default: Issue.record("unknown operation \(operation)")
    }
    #expect(marked(line) == after)
  }

  @Test func aTypedCombiningMarkJoinsTheCharacterBeforeIt() {
    var line = editor("caf|")
    line.insert("e")
    line.insert("\u{301}")
    #expect(line.characters.count == 4)
    #expect(marked(line) == "cafe\u{301}|")
  }

  @Test func historyBrowsesAndKeepsTheDraft() {
    var history = InputHistory()
    history.record("first")
    history.record("second")
    #expect(history.previous(current: "draft") == "second")
    #expect(history.previous(current: "second") == "first")
    #expect(history.previous(current: "first") == nil)
    #expect(history.next() == "second")
    #expect(history.next() == "draft")
    #expect(history.next() == nil)
  }
}

@Suite("Keys, as the model handles them")
struct KeyHandlingTests {
  @Test func enterAsksAndClearsEmptyDoesNothing() {
    var model = onScreen().model()
    #expect(model.press(.enter).isEmpty)
    model.type("  Why?  ")
    #expect(model.press(.enter) == [.ask("Why?")])
    #expect(model.editor.isEmpty)
    _ = model.press(.control("p"))
    #expect(model.editor.text == "Why?")
  }

  @Test func aQuestionTooLongStaysInTheLineWithANotice() {
    var model = onScreen(maxLength: 10).model()
    model.type("Eleven char")
    #expect(model.press(.enter).isEmpty)
    #expect(model.editor.text == "Eleven char")
    #expect(model.notices.last?.kind == .error)
  }

  @Test func aRefusedQuestionComesBackIntoAnEmptyLine() {
    var model = onScreen().model()
    model.restoreInput("refused")
    #expect(model.editor.text == "refused")
    model.restoreInput("another")
    #expect(model.editor.text == "refused")
  }

  @Test func readlineKeys() {
    var model = onScreen().model()
    model.type("one two three")
    _ = model.press(.alt("b"), .control("w"))
    #expect(marked(model.editor) == "one |three")
    _ = model.press(.control("e"), .control("u"))
    #expect(model.editor.isEmpty)
    model.type("abc")
    _ = model.press(.control("a"), .control("f"), .control("k"))
    #expect(marked(model.editor) == "a|")
    _ = model.press(.control("b"), .control("d"))
    #expect(marked(model.editor) == "|")
  }

  @Test func pastedLinesBecomeOneQuestion() {
    var model = onScreen().model()
    let actions = model.press(
      .pasteStart, .text("first line"), .enter, .text("second\tline\r\nthird"), .pasteEnd)
    #expect(actions.isEmpty)
    #expect(model.editor.text == "first line second line third")
    #expect(model.press(.enter) == [.ask("first line second line third")])
  }

  @Test func quittingAsksFirstWhenQuestionsAreQueued() {
    var model = onScreen().model()
    #expect(model.press(.control("c")) == [.quit])
    #expect(model.press(.control("d")) == [.quit])
    var scenario = onScreen()
    scenario.ask("not sent")
    model = scenario.model()
    #expect(model.press(.control("c")).isEmpty)
    #expect(screen(model).contains("Quit with 1 question not sent? y/n (it is kept and sent t…"))
    #expect(model.press(.text("n")).isEmpty)
    #expect(!model.confirmingQuit)
    #expect(model.press(.control("d"), .text("y")) == [.quit])
    #expect(model.press(.control("c"), .text("yes")) == [.quit])
  }

  @Test func ctrlTRetriesAndCtrlXDiscardsTheLastRefusedQuestion() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    let first = scenario.ask("first refused")
    let second = scenario.ask("second refused")
    scenario.refuse(first, reason: "no")
    scenario.refuse(second, reason: "no")
    var model = scenario.model()
    #expect(model.press(.control("t")) == [.retry(second)])
    #expect(model.press(.control("x")) == [.discard(second)])
  }

  @Test func helpAndOtherCommands() {
    var model = onScreen().model()
    #expect(model.press(.function(1)).isEmpty)
    #expect(model.showsHelp)
    _ = model.press(.text("x"))
    #expect(!model.showsHelp && model.editor.isEmpty)
    #expect(model.press(.control("l")) == [.redraw])
    #expect(model.press(.control("r")) == [.reconnectNow])
    #expect(model.press(.control("t")).isEmpty)  // nothing refused: a notice says so
    #expect(model.notices.last?.text == "No refused question to ask again.")
    #expect(model.press(.control("x")).isEmpty)
    #expect(model.notices.last?.text == "No refused question to discard.")
    model.type("a?")
    #expect(!model.showsHelp && model.editor.text == "a?")
  }

  @Test func aPasteThatClosesTheHelpIsStillOneQuestion() {
    var model = onScreen().model()
    _ = model.press(.function(1))
    let actions = model.press(.pasteStart, .text("line one"), .enter, .text("line two"), .pasteEnd)
    #expect(actions.isEmpty)
    #expect(!model.showsHelp)
    #expect(model.editor.text == "line one line two")
    // A lost end marker: Esc ends the paste, and Enter asks again.
    _ = model.press(.pasteStart, .escape)
    #expect(model.press(.enter) == [.ask("line one line two")])
  }

  /// `qna screen` takes no input but its way out, also when the q comes in one read with the
  /// keys before it (as `x` then `q` typed quickly do: the loop joins them into "xq").
  @Test func aProjectorEndsOnQAnywhereInARunOfKeys() {
    var model = onScreen().model()
    model.options.projector = ProjectorScreen(joinAddress: "http://h/room/", code: nil, qr: [])
    #expect(model.press(.text("x"), .text("hello"), .enter, .up).isEmpty)
    #expect(model.editor.isEmpty)
    for key in [Key.text("q"), .text("Q"), .text("xq"), .escape, .control("c")] {
      #expect(model.press(key) == [.quit], "\(key)")
    }
  }

  @Test func aQuestionNotYetTakenByTheEngineStillAsksBeforeQuitting() {
    var model = onScreen().model()
    model.type("just typed")
    #expect(model.press(.enter) == [.ask("just typed")])
    #expect(model.press(.control("c")).isEmpty)
    #expect(model.confirmingQuit)
    _ = model.press(.text("n"))
    model.askTaken()
    #expect(model.press(.control("c")) == [.quit])
  }

  @Test func ctrlTAsksTheLastRefusedQuestionAgain() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    let first = scenario.ask("First refused")
    scenario.refuse(first, reason: "no")
    let second = scenario.ask("Second refused")
    scenario.refuse(second, reason: "no")
    var model = scenario.model()
    #expect(model.press(.control("t")) == [.retry(second)])
  }

  @Test func aRefusedQuestionWhileTypingGoesToTheHistory() {
    var model = onScreen().model()
    model.type("new text")
    model.restoreInput("refused one")
    #expect(model.editor.text == "new text")
    #expect(model.notices.last?.text.contains("Ctrl-P") == true)
    _ = model.press(.control("p"))
    #expect(model.editor.text == "refused one")
  }

  @Test func invisibleControlsAreNotTyped() {
    var model = onScreen().model()
    _ = model.press(.text("abc\u{202E}def\u{200F}"))
    #expect(model.editor.text == "abcdef")
  }

  @Test func everyHighlightEndIsScheduledAndTheNewestNoticeShows() {
    var scenario = onScreen()
    scenario.connectToProjectServer(connectionID)
    let first = scenario.asked("First")
    let second = scenario.asked("Second")
    scenario.answer(first)
    scenario.apply(.clock(.seconds(102)))
    scenario.answer(second)
    var model = scenario.model()
    // Highlights end at 103 and 105; the engine's notices at 105 and 107.
    #expect(model.nextChange == .seconds(103))
    scenario.refuse(scenario.ask("Third"), reason: "Slow down")
    model.update(state: scenario.state)
    model.now = .seconds(101)
    model.restoreInput("x")  // a local notice, older than the refusal's
    model.now = .seconds(102)
    #expect(model.notices.last?.text == "Slow down" || model.notices.last?.kind == .error)
  }
}

@Suite("Text on a terminal")
struct TerminalTextTests {
  /// Before each test: widths need the UTF-8 locale, whichever test runs first.
  init() { #expect(utf8Locale) }

  @Test func widthsFollowWcwidth() {
    #expect(utf8Locale)
    #expect(TextWidth.of("abc") == 3)
    #expect(TextWidth.of("日本") == 4)
    #expect(TextWidth.of("e\u{301}") == 1)
    #expect(TextWidth.of("🎉") == 2)
  }

  @Test(arguments: [
    ("\u{1B}[31mred", "\\e[31mred"), ("a\u{0}b", "a\\x00b"), ("tab\there", "tab\\there"),
    ("\u{7F}\u{85}", "\\x7F\\x85"), ("\u{202E}abc\u{2066}", "\\u{202E}abc\\u{2066}"),
    ("plain: ünïcödé 日本 🎉", "plain: ünïcödé 日本 🎉"),
    // Direction marks are dropped (ordinary in right-to-left text, invisible); embeddings,
    // overrides and isolates, which reorder what follows them, stay escaped.
    ("שלום\u{200F}!", "שלום!"), ("مرحبا\u{061C} 12", "مرحبا 12"), ("a\u{200E}b", "ab"),
    (
      "\u{202B}x\u{202C}\u{202D}y\u{2067}z\u{2069}",
      "\\u{202B}x\\u{202C}\\u{202D}y\\u{2067}z\\u{2069}"
    ),
  ])
  func sanitizer(input: String, shown: String) {
    #expect(Sanitizer.forScreen(input) == shown)
  }

  @Test func wrapping() {
    #expect(TextWrap.lines("aaa bbb ccc", width: 7) == ["aaa bbb", "ccc"])
    #expect(TextWrap.lines("aaa bbb ccc", width: 8) == ["aaa bbb", "ccc"])
    #expect(TextWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    #expect(TextWrap.lines("日本語日本語", width: 5) == ["日本", "語日", "本語"])
    #expect(TextWrap.lines("", width: 5) == [""])
    for width in 1...12 {
      for line in TextWrap.lines("word 日本語 🎉🎉 e\u{301}e\u{301} longerword", width: width) {
        #expect(TextWidth.of(line) <= max(width, 2))
      }
    }
  }

  @Test func gridDiffRepaintsOnlyChangedCells() {
    var old = ScreenGrid(rows: 2, columns: 4)
    old.write("abcd", row: 0, column: 0)
    var new = old
    new.write("x", row: 1, column: 2)
    #expect(GridDiff.changedCells(from: old, to: new) == [6])
    #expect(GridDiff.changedCells(from: nil, to: new).count == 8)
    #expect(GridDiff.changedCells(from: ScreenGrid(rows: 3, columns: 4), to: new).count == 8)
  }

  @Test func aWideCharacterNeverStraddlesTheEdge() {
    var grid = ScreenGrid(rows: 1, columns: 3)
    grid.write("a日本", row: 0, column: 0)
    #expect(grid.lines == ["a日"])
    #expect(grid[0, 2].isContinuation)
    grid.write("ab日", row: 0, column: 0)
    #expect(grid.lines == ["ab"])
  }
}
