import Foundation
import TestSupport
import Testing

extension TerminalToolkitTests {
  /// Labels from the console (`L` adds them), an attendee asking under one (`qna --label`,
  /// then Alt-L for the next), a presenter relabelling (`l`), and the console's search for
  /// `#label` showing only that label's questions.
  @Test func theConsoleKeepsLabelsAndTheAttendeeAsksUnderOne() async throws {
    // The label as typed, in another case: matched to the session's once the room is known.
    let stage = try await ToolkitStage.open(alice: ["--label", "keynote"])
    defer { stage.close() }
    let (alice, console) = (stage.alice, stage.console)
    for label in ["Keynote", "Panel"] {
      try console.type("L")
      try await console.waitFor("the label prompt") {
        $0.contains("New label (-label takes it out) ›")
      }
      try console.type(label)
      try console.press("Enter")
      try await console.waitFor("\(label) added") {
        $0.contains("“\(label)” is one of the session's labels now")
      }
    }
    try await alice.waitFor("asking under Keynote") { $0.contains("Ask under [Keynote] ›") }
    try alice.type("What about the roadmap?")
    try alice.press("Enter")
    try await console.waitFor("the label on the console") {
      Room.line($0, "[Keynote] What about the roadmap?") != nil
    }
    // Alt-L: the next label for the next question.
    try alice.press("M-l")
    try await alice.waitFor("asking under Panel") { $0.contains("Ask under [Panel] ›") }
    try alice.type("A question for the panel")
    try alice.press("Enter")
    try await alice.waitFor("its label in the room") {
      Room.line($0, "[Panel] A question for the panel") != nil
    }
    // l: the roadmap question goes under Panel (typed in any case).
    try await console.waitFor("both") { Room.line($0, "A question for the panel") != nil }
    // Newest first: the panel's question, then the roadmap.
    try console.type("s")
    try await console.waitFor("newest first") { $0.contains("newest first") }
    // The roadmap: the last, the older of the two.
    try console.press("End")
    try console.type("l")
    try await console.waitFor("its label to change") { $0.contains("Label (empty: none) ›") }
    try console.press("C-u")
    try console.type("nope")
    try console.press("Enter")
    try await console.waitFor("no such label") {
      $0.contains("No label “nope”; the labels are Keynote, Panel.")
    }
    try console.type("l")
    try console.press("C-u")
    try console.type("panel")
    try console.press("Enter")
    try await alice.waitFor("relabelled for the room") {
      Room.line($0, "[Panel] What about the roadmap?") != nil
    }
    // The console's search for #keynote shows none now; #panel shows both.
    try console.type("/")
    try console.type("#keynote")
    try await console.waitFor("no Keynote question") {
      Room.line($0, "What about the roadmap?") == nil
        && Room.line($0, "A question for the panel") == nil
    }
    try console.press("C-u")
    try console.type("#panel")
    try await console.waitFor("both under Panel") {
      Room.line($0, "What about the roadmap?") != nil
        && Room.line($0, "A question for the panel") != nil
    }
  }
}
