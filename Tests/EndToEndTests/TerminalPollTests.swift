import Foundation
import TestSupport
import Testing

/// Polls as people meet them in terminals, against `qna-server`: a presenter prepares and
/// opens a poll; two attendees answer it in `qna` (one in `--screen-reader` mode); once the
/// presenter shows the results, every screen's bars move: the attendees', and `qna screen`
/// on the projector.
@Suite("Polls in terminals", .serialized)
struct TerminalPollTests {
  typealias Room = TerminalRoomTests

  @Test func aPresenterAsksAndEveryScreensBarsMove() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let (server, code, token) = try await ProjectorTests.session("Polls", in: directory)
    defer { server.stop() }
    let serverURL = "ws://127.0.0.1:\(server.port)"
    let auth = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
    let made = try await server.http(
      "POST", "/s/\(code)/api/polls",
      body: #"{"kind":"single","prompt":"Tabs or spaces?","options":["Tabs","Spaces"]}"#,
      headers: auth)
    #expect(made.status == 200)
    _ = try #require(
      (try JSONSerialization.jsonObject(with: Data(made.body.utf8)) as? [String: Any])?["id"]
        as? String)
    // The presenter opens it from the console: F5 shows the session's polls, o opens one.
    let console = try Room.terminal(HeadlessProcess.freshDirectory())
    defer { console.kill() }
    try console.run(
      "QNA_TOKEN=\(token) '\(HeadlessProcess.qnaPath)' present "
        + "http://127.0.0.1:\(server.port)/s/\(code)/; echo \"EXIT=$?\"")
    try await console.waitFor("the console") {
      $0.contains("qna present") && $0.contains("● connected")
    }
    // "Connected" may show before the room (and its polls) has come: F5 with no poll yet
    // says so and opens nothing, so it is pressed again until the panel shows the draft
    // (again on the panel: the next poll, here the same one).
    var shown = false
    for _ in 0..<40 where !shown {
      try console.press("F5")
      try await Task.sleep(for: .milliseconds(250))
      let screen = try console.screen()
      shown = screen.contains("Poll 1 · one choice") && screen.contains("not opened yet")
    }
    try await console.waitFor("the draft") {
      $0.contains("Poll 1 · one choice") && $0.contains("not opened yet")
    }
    try console.type("o")
    try await console.waitFor("opened") { $0.contains("open · results hidden") }

    let screen = try TmuxSession(
      columns: 100, rows: 36, environment: ["XDG_STATE_HOME": directory.path, "LC_ALL": "C.UTF-8"])
    defer { screen.kill() }
    try screen.run(
      "'\(HeadlessProcess.qnaPath)' screen \(code) --url \(serverURL); echo \"EXIT=$?\"")
    try await screen.waitFor("the poll on the projector") {
      $0.contains("Poll: answer on your phone or in qna (F5)") && $0.contains("Tabs or spaces?")
    }

    let attendees = try (0..<2).map { _ in try Room.terminal(HeadlessProcess.freshDirectory()) }
    defer { for attendee in attendees { attendee.kill() } }
    for (index, attendee) in attendees.enumerated() {
      let reader = index == 1 ? " --screen-reader" : ""
      try attendee.run(
        "'\(HeadlessProcess.qnaPath)' join \(code) --url \(serverURL)\(reader); echo \"EXIT=$?\"")
      try await attendee.waitFor("the poll's strip") {
        $0.contains("Poll: Tabs or spaces?") && $0.contains("F5 to answer")
      }
    }
    // The first takes Spaces with the arrows, the second Tabs (the cursor's first option).
    try attendees[0].press("F5")
    try await attendees[0].waitFor("the panel") { $0.contains("(•) Tabs") }
    try attendees[0].press("Down")
    try attendees[0].press("Enter")
    try attendees[1].press("F5")
    try await attendees[1].waitFor("the panel, in words") {
      $0.contains("chosen Tabs") && $0.contains("Poll 1 · one choice")
    }
    try attendees[1].press("Enter")
    for attendee in attendees {
      try await attendee.waitFor("answered") { $0.contains("answered; F5 to change") }
    }
    // Revealed from the console too: its bars move with everyone's.
    try console.type("s")
    try await console.waitFor("shown, with its bars") {
      $0.contains("results shown to the room") && $0.contains("1 · 50%")
    }
    try await screen.waitFor("the bars on the projector") {
      $0.contains("2 answers") && $0.contains("1 · 50%") && $0.contains("█")
    }
    try attendees[0].press("F5")
    try await attendees[0].waitFor("the bars in qna") {
      $0.contains("Your answer: Spaces") && $0.contains("1 · 50%") && $0.contains("█")
    }
    try attendees[1].press("F5")
    try await attendees[1].waitFor("the results in words") {
      $0.contains("Tabs: 1 answer, 50 percent") && !$0.contains("█")
    }
    // The first changes its mind: every screen's bars move.
    try attendees[0].press("Up")
    try attendees[0].press("Enter")
    try await screen.waitFor("the bars moved") { $0.contains("2 · 100%") && $0.contains("0 · 0%") }
  }
}
