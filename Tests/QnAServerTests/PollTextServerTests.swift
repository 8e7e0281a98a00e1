import Foundation
import QnA
import QnARoom
import QnAServer
import TestSupport
import Testing

/// Open text polls over sockets and the API: answers cleaned and counted at once, entries
/// moderated like questions (the session's moderation, its word filter), presenters letting
/// them through or keeping them out, and only what presenters let through reaching the room.
@Suite("qna-server: open text polls", .serialized)
struct PollTextServerTests {
  /// The default session: no moderation, so an entry is live at once, unless the word
  /// filter flags it.
  @Test func entriesGoLiveUnlessTheFilterHoldsThem() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x2D))
    _ = try await alice.snapshot()
    let bob = try await RoomMember.join(server, as: uuid(2, group: 0x2D), counts: true)
    _ = try await bob.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let poll = uuid(1, group: 0x3D)
    let spec = PollSpec(kind: .text, prompt: "What should we change?")
    #expect(try await presenter.poll(.create, poll, spec: spec).success)
    #expect(try await presenter.poll(.open, poll).success)
    #expect(try await presenter.poll(.show, poll).success)

    let answered = try await alice.answer(poll, PollValue(text: " More\u{202E} \n demos "))
    #expect(answered.success && answered.value == PollValue(text: "More demos"))
    #expect(answered.message == nil, "live at once: nothing to say")
    try await bob.waitForResults(1) { $0.texts == [PollWord(text: "More demos", count: 1)] }

    // The filter (review by default) holds a flagged entry for presenters only.
    #expect(try await presenter.act(.filterAdd, nil, text: "badword").success)
    let flagged = try await bob.answer(poll, PollValue(text: "a badword here"))
    #expect(flagged.success && flagged.message == PollIntake.held)
    try await presenter.member.waitForResults(1) {
      $0.review == [PollWord(text: "a badword here", count: 1)] && $0.held == 1
    }
    #expect(
      !(try await presenter.poll(.approve, poll, text: "nobody wrote this")).success,
      "an entry no one gives")
    #expect(try await presenter.poll(.approve, poll, text: "a badword here").success)
    try await alice.waitForResults(1) { ($0.texts ?? []).map(\.text).contains("a badword here") }
    #expect(try await presenter.poll(.dismiss, poll, text: "More demos").success)
    try await bob.waitForResults(1) { $0.texts?.map(\.text) == ["a badword here"] }

    // Hostile answers: refused in words, bounded work.
    let long = try await alice.answer(poll, PollValue(text: String(repeating: "x", count: 10_000)))
    #expect(!long.success && long.retryAfter == nil)
    let invisible = try await alice.answer(poll, PollValue(text: "\u{200B}\u{202E}\u{0007}"))
    #expect(!invisible.success)
    let mixed = try await alice.answer(poll, PollValue(words: ["x"], text: "y"))
    #expect(!mixed.success)
    // Only a text poll's entries are moderated.
    let choice = uuid(2, group: 0x3D)
    _ = try await presenter.poll(
      .create, choice, spec: PollSpec(kind: .single, prompt: "A?", options: ["a", "b"]))
    #expect(!(try await presenter.poll(.approve, choice, text: "a")).success)
  }

  /// A moderated session holds every new entry; presenters approve over the API, and the
  /// export lists every entry with its moderation.
  @Test func aModeratedSessionHoldsEntriesUntilApproved() async throws {
    let server = try await ServerUnderTest { $0.moderation = true }
    defer { Task { await server.stop() } }
    let made = try await server.http(
      "POST", "/api/polls", body: #"{"kind":"text","prompt":"Questions for the panel?"}"#,
      headers: PollAPITests.json)
    #expect(made.status == 200)
    let poll = try JSONDecoder().decode(RoomPoll.self, from: Data(made.body.utf8)).id
    #expect(try await server.http("POST", "/api/polls/\(poll)/open").status == 200)
    #expect(try await server.http("POST", "/api/polls/\(poll)/show").status == 200)
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x2E))
    _ = try await alice.snapshot()
    let held = try await alice.answer(poll, PollValue(text: "=HYPERLINK(\"x\")"))
    #expect(held.success && held.message == PollIntake.held)
    let listed = try await server.http("GET", "/api/polls")
    #expect(listed.body.contains(#""held":1"#))

    let approve = try await server.http(
      "POST", "/api/polls/\(poll)/approve", body: #"{"text":"=HYPERLINK(\"x\")"}"#,
      headers: PollAPITests.json)
    #expect(approve.status == 200 && approve.body.contains(#""texts":[{"#))
    try await alice.waitForResults(1) { $0.texts?.first?.text == "=HYPERLINK(\"x\")" }
    let missing = try await server.http(
      "POST", "/api/polls/\(poll)/dismiss", body: #"{"text":"not given"}"#,
      headers: PollAPITests.json)
    #expect(missing.status == 404)
    let malformed = try await server.http(
      "POST", "/api/polls/\(poll)/dismiss", body: "[]", headers: PollAPITests.json)
    #expect(malformed.status == 400)

    // The export: every entry with its moderation, safe in a spreadsheet.
    let csv = try await server.http("GET", "/api/polls/results")
    #expect(csv.body.contains("correct,moderation"))
    #expect(csv.body.contains(#""'=HYPERLINK(""x"")","1","100.0%","","live""#))
    let json = try await server.http("GET", "/api/polls/results?format=json")
    #expect(json.body.contains(#""entries""#) && json.body.contains(#""state" : "live""#))
  }
}
