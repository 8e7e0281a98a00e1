import Foundation
import QnA
import QnATerminal
import TestSupport
import Testing

/// Polls in the terminal: a strip says one is open, F5 opens it, the arrows, Space and
/// Enter answer it, and the results are bars with counts and percentages, readable without
/// colour; a screen reader hears them in words.
@Suite("The poll panel")
struct PollPanelTests {
  init() { #expect(utf8Locale) }

  static let poll = uuid(1, group: 0x9E)

  static func room(_ polls: [RoomPoll]) -> StateDriver {
    var driver = onScreen()
    driver.apply(.identity(attendee: StateDriver.attendee, name: nil))
    driver.connect(extensions: StateDriver.roomExtensions + [ProtocolExtension.polls])
    driver.apply(
      .received(
        .room(
          RoomSnapshot(
            seq: 5, part: 1, parts: 1, questions: [], epoch: StateDriver.roomEpoch, polls: polls))))
    return driver
  }

  static func choice(results: PollResults? = nil, kind: PollKind = .single, max: Int? = nil)
    -> RoomPoll
  {
    RoomPoll(
      id: poll, n: 1,
      spec: PollSpec(
        kind: kind, prompt: "Tabs or spaces?", options: ["Tabs", "Spaces", "Both"], max: max),
      state: .open, shown: results != nil, results: results)
  }

  @Test func theStripSaysAPollIsOpenAndF5AnswersIt() {
    var model = Self.room([Self.choice()]).model(rows: 14, columns: 60, colors: false)
    #expect(screen(model).contains("Poll: Tabs or spaces? · F5 to answer"))
    #expect(model.state.hasPolls)
    #expect(model.press(.function(5)).isEmpty)
    #expect(model.pollPanel != nil)
    #expect(screen(model).contains("› 1 ( ) Tabs") == false)
    #expect(screen(model).contains("› 1 (•) Tabs"))
    _ = model.press(.down, .down)
    let actions = model.press(.enter)
    #expect(actions == [.answerPoll(Self.poll, PollValue(choices: [2]))])
    #expect(model.pollPanel == nil)
  }

  @Test func aMultipleChoiceIsMarkedWithSpaceWithinItsMaximum() {
    var model = Self.room([Self.choice(kind: .multiple, max: 2)]).model(rows: 14, columns: 60)
    _ = model.press(.function(5))
    #expect(model.press(.enter).isEmpty, "nothing marked yet: said, not sent")
    _ = model.press(.text(" "), .down, .text(" "), .down, .text(" "))
    #expect(screen(model).contains("[x] Tabs") && screen(model).contains("[ ] Both"))
    #expect(model.press(.enter) == [.answerPoll(Self.poll, PollValue(choices: [0, 1]))])
  }

  @Test func resultsAreBarsWithCountsAndPercentagesWithoutColour() {
    let results = PollResults(answers: 4, counts: [3, 1, 0])
    var model = Self.room([Self.choice(results: results)]).model(
      rows: 16, columns: 60, colors: false)
    _ = model.press(.function(5))
    let shown = screen(model)
    #expect(shown.contains("Tabs"))
    #expect(shown.contains("███") && shown.contains("3 · 75%"))
    #expect(shown.contains("1 · 25%") && shown.contains("0 · 0%"))
  }

  @Test func aScreenReaderHearsTheResultsInWords() {
    let results = PollResults(answers: 4, counts: [3, 1, 0])
    var model = Self.room([Self.choice(results: results)]).model(
      rows: 16, columns: 70, screenReader: true)
    _ = model.press(.function(5))
    let shown = screen(model)
    #expect(shown.contains("Tabs: 3 answers, 75 percent"))
    #expect(!shown.contains("█"))
    // The cursor is on the option it would choose, for the reader to follow.
    let frame = TerminalView.render(model)
    #expect(frame.cursor.map { frame.grid.lines[$0.row].contains("Tabs") } == true)
  }

  @Test func aRatingAndAWordCloud() {
    let rating = RoomPoll(
      id: Self.poll, n: 1, spec: PollSpec(kind: .rating, prompt: "How was it?"), state: .open,
      shown: true, results: PollResults(answers: 2, counts: [0, 0, 0, 1, 1]))
    var model = Self.room([rating]).model(rows: 18, columns: 60, colors: false)
    _ = model.press(.function(5))
    #expect(screen(model).contains("Average 4.5 of 5 (2 answers)"))
    _ = model.press(.right, .right)
    #expect(model.press(.enter) == [.answerPoll(Self.poll, PollValue(rating: 5))])

    let cloud = RoomPoll(
      id: Self.poll, n: 1, spec: PollSpec(kind: .words, prompt: "One word?"), state: .open,
      shown: true,
      results: PollResults(answers: 3, words: [PollWord(text: "swift", count: 3)]))
    var words = Self.room([cloud]).model(rows: 18, columns: 60, colors: false)
    _ = words.press(.function(5))
    words.type("fast, safe")
    #expect(screen(words).contains("swift") && screen(words).contains("█ 3"))
    #expect(words.press(.enter) == [.answerPoll(Self.poll, PollValue(words: ["fast", "safe"]))])
  }

  /// An open text: one line typed and sent cleaned; the room's entries listed, hostile
  /// ones drawn harmless; the console moderates the queue with a and d.
  @Test func anOpenTextIsTypedAndItsEntriesListed() {
    let hostile = "\u{1B}[2J\u{202E}evil"
    let text = RoomPoll(
      id: Self.poll, n: 1, spec: PollSpec(kind: .text, prompt: "Ideas?"), state: .open,
      shown: true,
      results: PollResults(
        answers: 3,
        texts: [PollWord(text: "More demos", count: 2), PollWord(text: hostile, count: 1)]))
    var model = Self.room([text]).model(rows: 18, columns: 60, colors: false)
    _ = model.press(.function(5))
    #expect(model.press(.enter).isEmpty, "nothing typed: said, not sent")
    #expect(screen(model).contains("Type your answer first."))
    model.type("  Coffee,  please ")
    let shown = screen(model)
    #expect(shown.contains("• More demos ×2"))
    #expect(!shown.contains("\u{1B}") && !shown.contains("\u{202E}"))
    #expect(model.press(.enter) == [.answerPoll(Self.poll, PollValue(text: "Coffee, please"))])
    _ = model.press(.function(5))
    #expect(screen(model).contains("Your answer: Coffee, please") == false, "not answered yet")
    model.type(String(repeating: "x", count: 149) + "y")
    #expect(screen(model).contains("xxy"), "the end of a long answer stays in sight")
    #expect(model.press(.enter).isEmpty)
    #expect(screen(model).contains("An answer has at most 140"))
    // A screen reader hears each entry and its count in words.
    let spoken = PollChart.lines(text, width: 60, words: true)
    #expect(spoken.first == "More demos (2 answers)")

    // The console: the entry that has waited longest approved or dismissed with one key.
    var review = text
    review.results?.review = [PollWord(text: "Slides?", count: 1)]
    review.results?.held = 4
    var driver = onScreen()
    driver.apply(.identity(attendee: StateDriver.attendee, name: nil))
    driver.connect(
      extensions: StateDriver.roomExtensions + [
        ProtocolExtension.polls, ProtocolExtension.presenter,
      ])
    driver.apply(
      .received(
        .room(
          RoomSnapshot(
            seq: 5, part: 1, parts: 1, questions: [], epoch: StateDriver.roomEpoch,
            polls: [review]))))
    var console = TerminalModel(
      options: .init(url: "ws://127.0.0.1:8080/socket", colors: false, presenter: true),
      state: driver.state, rows: 20, columns: 90)
    _ = console.press(.function(5))
    #expect(screen(console).contains("4 wait for review:"))
    #expect(console.press(.text("a")) == [.pollAction(.approve, Self.poll, text: "Slides?")])
    #expect(console.press(.text("d")) == [.pollAction(.dismiss, Self.poll, text: "Slides?")])
    #expect(console.press(.text("D")) == [.pollAction(.dismiss, Self.poll, text: "More demos")])
  }

  @Test func aClosedQuizShowsItsAnswerAndTheLeaderboard() {
    var quiz = RoomPoll(
      id: Self.poll, n: 1,
      spec: PollSpec(kind: .single, prompt: "2+2?", options: ["3", "4"], correct: [1]),
      state: .closed, shown: true, results: PollResults(answers: 3, counts: [1, 2]))
    quiz.leaderboard = [
      LeaderboardEntry(place: 1, name: "Ada", score: 2),
      LeaderboardEntry(place: 2, name: nil, score: 1),
    ]
    let projector = PollChart.leaderboard(quiz)
    #expect(projector == ["Leaderboard", "1. Ada: 2 right", "2. anonymous: 1 right"])
    #expect(PollChart.lines(quiz, width: 40).first?.hasPrefix("3") == true)
    #expect(PollChart.lines(quiz, width: 40).last?.hasPrefix("✓ 4") == true)
  }

  /// The console (`qna present`): F5 shows every poll with its results, and keys act on it.
  @Test func thePresentersConsoleOpensClosesShowsAndResetsPolls() {
    var driver = onScreen()
    driver.apply(.identity(attendee: StateDriver.attendee, name: nil))
    driver.connect(
      extensions: StateDriver.roomExtensions + [
        ProtocolExtension.polls, ProtocolExtension.presenter,
      ])
    let draft = RoomPoll(
      id: uuid(2, group: 0x9E), n: 2,
      spec: PollSpec(kind: .words, prompt: "A word?"), state: .draft, shown: false)
    driver.apply(
      .received(
        .room(
          RoomSnapshot(
            seq: 5, part: 1, parts: 1, questions: [], epoch: StateDriver.roomEpoch,
            polls: [Self.choice(results: PollResults(answers: 2, counts: [1, 1, 0])), draft]))))
    var model = TerminalModel(
      options: .init(url: "ws://127.0.0.1:8080/socket", colors: false, presenter: true),
      state: driver.state, rows: 20, columns: 80)
    _ = model.press(.function(5))
    let shown = screen(model)
    #expect(shown.contains("Poll 1 · one choice") && shown.contains("results shown to the room"))
    #expect(shown.contains("1 · 50%"))
    #expect(model.press(.text("o")) == [.pollAction(.close, Self.poll)])
    #expect(model.press(.text("s")) == [.pollAction(.hide, Self.poll)])
    #expect(model.press(.text("r")) == [.pollAction(.reset, Self.poll)])
    _ = model.press(.down)
    #expect(screen(model).contains("not opened yet · results hidden"))
    #expect(model.press(.text("o")) == [.pollAction(.open, draft.id)])
    #expect(model.press(.text("X")) == [.pollAction(.delete, draft.id)])
    // The action goes on the wire as the presenter's, with a token.
    var presenter = StateDriver(configuration: QnAConfiguration(presenter: true))
    presenter.apply(.identity(attendee: StateDriver.attendee, name: nil))
    presenter.connect(
      extensions: StateDriver.roomExtensions + [
        ProtocolExtension.polls, ProtocolExtension.presenter,
      ])
    let effects = presenter.apply(.pollAct(.open, poll: draft.id, token: uuid(7)))
    #expect(
      effects.contains {
        if case .pollAction(let action) = $0 {
          action.token == uuid(7) && action.kind == .open
        } else {
          false
        }
      })
  }

  @Test func noPollOpenIsSaid() {
    var model = Self.room([]).model(rows: 12, columns: 60)
    _ = model.press(.function(5))
    #expect(model.pollPanel == nil)
    #expect(screen(model).contains("No poll is open."))
  }
}
