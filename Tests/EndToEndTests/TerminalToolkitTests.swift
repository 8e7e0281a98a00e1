import Foundation
import TestSupport
import Testing

/// The presenter's toolkit as people use it, each at a terminal of their own (tmux): the
/// console announces, the attendee's `qna` and the projector (`qna screen`) show the banner,
/// and a script's `qna --headless` hears it as an event.
@Suite("The presenter's toolkit in terminals", .serialized)
struct TerminalToolkitTests {
  typealias UI = TerminalUITests
  typealias Room = TerminalRoomTests

  @Test func anAnnouncementFromTheConsoleReachesEveryScreenAndIsUndone() async throws {
    let stage = try await ToolkitStage.open(screen: true)
    defer { stage.close() }
    let (alice, console, screen) = (stage.alice, stage.console, try #require(stage.screen))
    let headless = try HeadlessProcess(["--url", stage.server.url])
    defer { headless.interrupt() }

    // b, the text, Enter: a banner across Alice's room, right under the header.
    try console.type("b")
    try await console.waitFor("the announcement's prompt") { $0.contains("Announcement ›") }
    try console.type("Coffee at 15:30 in the foyer")
    try console.press("Enter")
    let shown = try await alice.waitFor("the banner") {
      UI.lines($0).dropFirst().first?.contains("Announcement: Coffee at 15:30 in the foyer")
        == true
    }
    #expect(shown.contains("Announcement: Coffee at 15:30 in the foyer"), "and as a notice")
    try await console.waitFor("the console's own banner") {
      UI.lines($0).dropFirst().first?.contains("Coffee at 15:30 in the foyer") == true
    }
    try await screen.waitFor("the projector's banner") {
      $0.contains("Coffee at 15:30 in the foyer")
    }
    _ = try await headless.waitFor("announcement") {
      $0["text"] == "Coffee at 15:30 in the foyer"
    }

    // Replaced: b opens the line with the text shown; Ctrl-U empties it.
    try console.type("b")
    try await console.waitFor("the text shown, to edit") {
      $0.contains("Announcement › Coffee at 15:30 in the foyer")
    }
    try console.press("C-u")
    try console.type("Room B for the next talk")
    try console.press("Enter")
    try await alice.waitFor("the new banner") {
      UI.lines($0).dropFirst().first?.contains("Room B for the next talk") == true
    }
    // u takes it back: the coffee again.
    try console.type("u")
    try await alice.waitFor("the banner undone") {
      UI.lines($0).dropFirst().first?.contains("Coffee at 15:30 in the foyer") == true
    }
    // An empty line clears it: the room starts under the header again.
    try console.type("b")
    try console.press("C-u")
    try console.press("Enter")
    try await alice.waitFor("no banner") { !$0.contains("Coffee at 15:30") }
    try await screen.waitFor("none on the projector") { !$0.contains("Coffee at 15:30") }
    _ = try await headless.waitFor("announcement") { $0.fields["text"] is NSNull }
    // Esc drops what was typed.
    try console.type("b")
    try console.type("Never sent")
    try console.press("Escape")
    try await console.waitFor("dropped") { $0.contains("Announcement dropped.") }
    try await Task.sleep(for: .milliseconds(300))
    #expect(!(try alice.screen()).contains("Never sent"))
  }
}

extension TerminalToolkitTests {
  /// A list from a file at start (`--word-list`) and a word the moderator adds with `w`:
  /// questions with either wait in review, marked in the console with what matched.
  @Test func wordsFromAFileAndFromTheConsoleSendQuestionsToReview() async throws {
    let files = try TemporaryDirectory()
    let list = files.path("en.txt")
    try "# an organiser's list\ndarn\nski lift\n".write(
      toFile: list, atomically: true, encoding: .utf8)
    // Default settings (no --moderation) but for the token and the list.
    let stage = try await ToolkitStage.open(["--word-list", "en=\(list)"])
    defer { stage.close() }
    let (alice, console) = (stage.alice, stage.console)
    try alice.type("Is the SKI-LIFT open?")
    try alice.press("Enter")
    try await alice.waitFor("hers, in review") {
      Room.line($0, "Is the SKI-LIFT open?")?.contains("In review") == true
    }
    try console.type("w")
    try await console.waitFor("the filter's prompt") { $0.contains("Filter word") }
    try console.type("frak")
    try console.press("Enter")
    try await console.waitFor("confirmed") { $0.contains("“frak” is in the word filter now.") }
    try alice.type("What the fr4k happened?")
    try alice.press("Enter")
    try await alice.waitFor("in review too") {
      Room.line($0, "What the fr4k happened?")?.contains("In review") == true
    }
    try console.type("1")
    let review = try await console.waitFor("both in review, marked") {
      $0.contains("Review 2") && $0.contains("Filtered (frak)")
        && $0.contains("Filtered (ski lift)")
    }
    #expect(review.contains("What the fr4k happened?"))
    // -frak takes it out: the next one goes live.
    try console.type("w")
    try console.type("-frak")
    try console.press("Enter")
    try await console.waitFor("taken out") { $0.contains("“frak” is out of the word filter.") }
    try alice.type("No more frak here?")
    try alice.press("Enter")
    try await alice.waitFor("live") {
      Room.line($0, "No more frak here?").map { !$0.contains("In review") } == true
    }
  }
}

extension TerminalToolkitTests {
  /// A word list that cannot be read, or is not a list, stops the server before it starts,
  /// in one clear line per problem.
  @Test func aBadWordListFileIsRefusedAtStart() throws {
    let files = try TemporaryDirectory()
    let pattern = files.path("pattern.txt")
    try "darn\nf.*k\n".write(toFile: pattern, atomically: true, encoding: .utf8)
    let cases = [
      (["--word-list", "en=\(files.path("missing.txt"))"], "cannot read"),
      (["--word-list", "en=\(pattern)"], "line 2: Entries are words or phrases, not patterns"),
      (["--word-list", "EN US=\(pattern)"], "a list's name is"),
      (["--word-list", "en"], "is not NAME=FILE"),
    ]
    for (arguments, words) in cases {
      let run = try ProgramRun(
        QnAServerProcess.path, ["--port", "0", "--db", ":memory:"] + arguments)
      #expect(run.status != 0 && run.errors.contains(words), "\(arguments): \(run.errors)")
    }
  }
}

extension TerminalToolkitTests {
  /// The console edits a question (the asker sees the new text in Mine and in the room) and
  /// silences its asker (their next question waits in review) until `X`.
  @Test func theConsoleEditsAQuestionAndSilencesItsAsker() async throws {
    let stage = try await ToolkitStage.open()
    defer { stage.close() }
    let (alice, console) = (stage.alice, stage.console)
    try alice.type("Waht is teh plan?")
    try alice.press("Enter")
    try await console.waitFor("the question") { Room.line($0, "Waht is teh plan?") != nil }
    try console.press("Down")
    try console.type("e")
    try await console.waitFor("its text to edit") {
      $0.contains("Edit the question › Waht is teh plan?")
    }
    try console.press("C-u")
    try console.type("What is the plan?")
    try console.press("Enter")
    let edited = try await alice.waitFor("the new text, marked") {
      Room.line($0, "What is the plan?")?.contains("(edited)") == true
    }
    #expect(edited.contains("The presenter edited your question"))
    #expect(!edited.contains("Waht is teh plan?"))
    // Mine has the new text too.
    try alice.press("Tab")
    try await alice.waitFor("Mine") {
      Room.line($0, "What is the plan?") != nil && $0.contains("Mine")
    }
    try alice.press("Tab")
    // x: the asker's next question waits in review; X: no longer.
    try console.type("x")
    try await Task.sleep(for: .milliseconds(300))
    try alice.type("Another one from me")
    try alice.press("Enter")
    try await alice.waitFor("in review") {
      Room.line($0, "Another one from me")?.contains("In review") == true
    }
    try console.type("1")
    try await console.waitFor("marked") { $0.contains("Filtered (silenced asker)") }
    try console.type("2")
    try console.press("Down")
    try console.type("X")
    try await Task.sleep(for: .milliseconds(300))
    try alice.type("And a last one")
    try alice.press("Enter")
    try await alice.waitFor("live again") {
      Room.line($0, "And a last one").map { !$0.contains("In review") } == true
    }
  }
}

extension TerminalToolkitTests {
  /// The panel's queue from the console: a star, two questions next up, one moved to the
  /// top, the queue shown to the room (the attendee's marks, the projector's "Up next"),
  /// then `N`: the first becomes the one being answered.
  @Test func theConsoleQueuesStarsAndAdvancesToTheNextQuestion() async throws {
    let stage = try await ToolkitStage.open(screen: true)
    defer { stage.close() }
    let (alice, console, screen) = (stage.alice, stage.console, try #require(stage.screen))
    for text in ["First for the panel", "Second for the panel"] {
      try alice.type(text)
      try alice.press("Enter")
      try await console.waitFor(text) { Room.line($0, text) != nil }
    }
    // Newest first: the second question, then the first.
    try console.type("s")
    try await console.waitFor("newest first") { $0.contains("newest first") }
    // The console selected the first question when it arrived, and keeps it: Home goes to
    // the top of the list, the second.
    try console.press("Home")
    try console.type("*n")
    try await console.waitFor("starred, next up 1") {
      Room.line($0, "Second for the panel")?.contains("★ Next up 1 ·") == true
    }
    try console.press("Down")
    try console.type("nT")
    try await console.waitFor("moved to the top") {
      Room.line($0, "First for the panel")?.contains("Next up 1 ·") == true
        && Room.line($0, "Second for the panel")?.contains("Next up 2 ·") == true
    }
    #expect(!(try alice.screen()).contains("Next up"), "not shown to the room yet")
    try console.type("v")
    try await alice.waitFor("the room sees the queue") {
      Room.line($0, "First for the panel")?.contains("Next up 1 ·") == true
    }
    #expect(!(try alice.screen()).contains("★"), "stars are the presenters'")
    try await screen.waitFor("the projector's up next, in the queue's order") {
      guard let first = $0.range(of: "First for the panel"),
        let second = $0.range(of: "Second for the panel")
      else { return false }
      return first.lowerBound < second.lowerBound
    }
    try console.type("N")
    try await alice.waitFor("now answering the first") {
      $0.contains("Now answering your question: First for the panel")
    }
    try await alice.waitFor("the second is next") {
      Room.line($0, "Second for the panel")?.contains("Next up 1 ·") == true
    }
  }
}
