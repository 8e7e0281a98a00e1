import Foundation
import QnA
import QnARoom
import QnAServer
import TestSupport
import Testing

extension PresenterMember {
  /// Sends a poll action and waits for its outcome.
  @discardableResult
  func poll(
    _ kind: PollActionKind, _ poll: UUID, spec: PollSpec? = nil, text: String? = nil,
    token: UUID = UUID()
  ) async throws -> PollActionResponse {
    try await member.socket.send(
      .pollAction(
        PollAction(
          id: member.connection, token: token, poll: poll, action: kind, spec: spec, text: text)))
    let message = try await member.socket.waitForMessage("poll action") {
      if case .pollActionResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .pollActionResponse(let response) = message else {
      throw ServerTestError.unexpected(message)
    }
    return response
  }
}

extension RoomMember {
  /// Answers a poll and waits for the server's response.
  func answer(_ poll: UUID, _ value: PollValue, token: UUID = UUID()) async throws
    -> PollAnswerResponse
  {
    try await socket.send(
      .pollAnswer(PollAnswer(id: connection, poll: poll, token: token, value: value)))
    let message = try await socket.waitForMessage("poll answer") {
      if case .pollAnswerResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .pollAnswerResponse(let response) = message else {
      throw ServerTestError.unexpected(message)
    }
    return response
  }

  /// Waits for a delta whose results for poll `n` satisfy `test`.
  func waitForResults(_ n: Int, _ test: @escaping @Sendable (PollResults) -> Bool) async throws {
    _ = try await socket.waitForMessage("results of poll \(n)") {
      guard case .roomDelta(let delta) = $0 else { return false }
      return (delta.pollResults ?? []).contains { $0.n == n && test($0) }
        || (delta.polls ?? []).contains { $0.n == n && $0.results.map(test) == true }
    }
  }
}

/// Extension `polls` over sockets: a presenter prepares, opens, reveals and closes a poll;
/// attendees answer, change their answers, and see the results move as counts; joiners get
/// the polls with the room and their own answers; what is no answer is refused in words.
@Suite("qna-server: polls", .serialized)
struct PollServerTests {
  @Test(arguments: [false, true])
  func aPresenterAsksAndTheRoomSeesTheAnswer(compact: Bool) async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x2A), counts: compact)
    _ = try await alice.snapshot()
    #expect(try await alice.socket.handshakeMessage().extensions?.contains("polls") == true)
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let poll = uuid(1, group: 0x3A)
    let spec = PollSpec(
      kind: .multiple, prompt: "Which talks?", options: ["Keynote", "Panel", "Demo"], max: 2)
    #expect(try await presenter.poll(.create, poll, spec: spec).success)
    #expect(try await presenter.poll(.open, poll).success)
    // The attendee sees it open, without results (not shown yet).
    _ = try await alice.socket.waitForMessage("the poll") {
      guard case .roomDelta(let delta) = $0 else { return false }
      return (delta.polls ?? []).contains {
        $0.id == poll && $0.state == "open" && $0.results == nil
      }
    }
    let answered = try await alice.answer(poll, PollValue(choices: [2, 0]))
    #expect(answered.success && answered.value == PollValue(choices: [0, 2]))
    let tooMany = try await alice.answer(poll, PollValue(choices: [0, 1, 2]))
    #expect(!tooMany.success && tooMany.message == "This poll takes 1 to 2 options.")
    let nowhere = try await alice.answer(poll, PollValue(choices: [7]))
    #expect(!nowhere.success && nowhere.retryAfter == nil)
    try await presenter.member.waitForResults(1) { $0.answers == 1 && $0.counts == [1, 0, 1] }

    #expect(try await presenter.poll(.show, poll).success)
    let bob = try await RoomMember.join(server, as: uuid(2, group: 0x2A), counts: compact)
    let pages = try await bob.snapshot()
    let seen = pages.flatMap { $0.polls ?? [] }
    #expect(seen.map(\.id) == [poll] && seen.first?.results?.counts == [1, 0, 1])
    #expect(try await bob.answer(poll, PollValue(choices: [1])).success)
    try await alice.waitForResults(1) { $0.answers == 2 && $0.counts == [1, 1, 1] }
    // Alice changes her mind: her old choices move out.
    #expect(try await alice.answer(poll, PollValue(choices: [1])).success)
    try await bob.waitForResults(1) { $0.answers == 2 && $0.counts == [0, 2, 0] }

    // Alice comes back: the room has her answer.
    let again = try await RoomMember.join(
      server, as: alice.attendee, credential: try await alice.credential(), counts: compact)
    let room = try await again.snapshot()
    let mine: PollValue?
    if compact {
      mine = try await again.own().polls?.first { $0.n == 1 }?.value
    } else {
      mine = room.flatMap { $0.polls ?? [] }.first?.mine
    }
    #expect(mine == PollValue(choices: [1]))

    #expect(try await presenter.poll(.close, poll).success)
    let closed = try await bob.answer(poll, PollValue(choices: [0]))
    #expect(!closed.success && closed.message == "That poll is closed.")
    #expect(try await presenter.poll(.delete, poll).success)
    _ = try await bob.socket.waitForMessage("the poll gone") {
      if case .roomDelta(let delta) = $0 { delta.removedPolls == [poll] } else { false }
    }
  }

  /// A quiz with a time limit closes itself at `closesAt`: every screen sees it closed.
  @Test func aTimedQuizClosesItselfOnTime() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x2F))
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let quiz = uuid(1, group: 0x3F)
    // The shortest time limit the rules allow.
    let spec = PollSpec(
      kind: .single, prompt: "2+2?", options: ["3", "4"], correct: [1],
      timeLimit: PollRules.timeLimits.lowerBound)
    #expect(try await presenter.poll(.create, quiz, spec: spec).success)
    let opened = Date()
    #expect(try await presenter.poll(.open, quiz).success)
    #expect(try await alice.answer(quiz, PollValue(choices: [1])).success)
    _ = try await alice.socket.waitForMessage("the quiz closed", seconds: 15) {
      guard case .roomDelta(let delta) = $0 else { return false }
      return (delta.polls ?? []).contains { $0.id == quiz && $0.state == "closed" }
    }
    #expect(Date().timeIntervalSince(opened) >= Double(PollRules.timeLimits.lowerBound) - 0.5)
    let late = try await alice.answer(quiz, PollValue(choices: [0]))
    #expect(!late.success && late.value == PollValue(choices: [1]))
  }

  @Test func onlyPresentersActAndScreensDoNotAnswer() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x2B))
    _ = try await alice.snapshot()
    let poll = uuid(1, group: 0x3B)
    try await alice.socket.send(
      .pollAction(
        PollAction(
          id: alice.connection, token: uuid(1), poll: poll, action: .create,
          spec: PollSpec(kind: .words, prompt: "Mine?"))))
    let refused = try await alice.socket.waitForMessage("refused") {
      if case .pollActionResponse(let response) = $0 { !response.success } else { false }
    }
    #expect(refused.type == "pollActionResponse")
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let hostile = PollSpec(kind: .single, prompt: "Pick", options: (0..<1000).map { "\($0)" })
    let tooBig = try await presenter.poll(.create, poll, spec: hostile)
    #expect(!tooBig.success && tooBig.message == "A poll has at most 20 options.")
    #expect(
      try await presenter.poll(.create, poll, spec: PollSpec(kind: .words, prompt: "One word?"))
        .success)
    #expect(try await presenter.poll(.open, poll).success)
    let screen = try await RoomScreen.join(server)
    try await screen.socket.send(
      .pollAnswer(
        PollAnswer(
          id: screen.connection, poll: poll, token: uuid(2), value: PollValue(words: ["x"]))))
    let screenRefused = try await screen.socket.waitForMessage("screen refused") {
      if case .pollAnswerResponse(let response) = $0 { !response.success } else { false }
    }
    guard case .pollAnswerResponse(let response) = screenRefused else { return }
    #expect(response.message == "A screen does not answer polls.")
    // A presenter's connection does not answer (it sees results and a quiz's answers).
    try await presenter.member.socket.send(
      .pollAnswer(
        PollAnswer(
          id: presenter.member.connection, poll: poll, token: uuid(3),
          value: PollValue(words: ["mine"]))))
    let presenterRefused = try await presenter.member.socket.waitForMessage("refused") {
      if case .pollAnswerResponse(let response) = $0 { !response.success } else { false }
    }
    #expect(presenterRefused.type == "pollAnswerResponse")
    // The word filter reads the words as they are counted: a control inside one does not
    // split it past the filter.
    #expect(try await presenter.act(.filterAdd, nil, text: "badword").success)
    let hidden = try await alice.answer(poll, PollValue(words: ["bad\u{0001}word"]))
    #expect(!hidden.success && hidden.message == PollIntake.filtered)
    // Control and bidi characters fold away; what is left is counted.
    let folded = try await alice.answer(poll, PollValue(words: ["\u{202E}Swift\u{0007}", "SWIFT"]))
    #expect(folded.value == PollValue(words: ["swift"]))
    let long = try await alice.answer(
      poll, PollValue(words: [String(repeating: "x", count: 10_000)]))
    #expect(!long.success && long.retryAfter == nil)
  }
}

/// The same over the API: made, imported, exported, acted on, each once per key.
@Suite("qna-server: polls over the API", .serialized)
struct PollAPITests {
  static let json = ["Content-Type": "application/json"]

  @Test func presentersPreparePollsAheadAndRunThemLive() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let key = UUID()
    let made = try await server.http(
      "POST", "/api/polls",
      body: #"{"kind":"rating","prompt":"How was the talk?","scale":{"min":1,"max":10}}"#,
      headers: Self.json.merging(["Idempotency-Key": key.uuidString]) { $1 })
    #expect(made.status == 200 && made.body.contains(#""state":"draft""#))
    let again = try await server.http(
      "POST", "/api/polls",
      body: #"{"kind":"rating","prompt":"How was the talk?","scale":{"min":1,"max":10}}"#,
      headers: Self.json.merging(["Idempotency-Key": key.uuidString]) { $1 })
    #expect(again.status == 200)
    let imported = try await server.http(
      "POST", "/api/polls/import",
      body:
        #"[{"kind":"words","prompt":"One word?"},{"kind":"single","prompt":"2+2?","options":["3","4"],"correct":[1]}]"#,
      headers: Self.json)
    #expect(imported.status == 200)
    let list = try JSONDecoder().decode(
      [String: [RoomPoll]].self, from: Data(try await server.http("GET", "/api/polls").body.utf8))
    #expect(list["polls"]?.map(\.n) == [1, 2, 3], "the retried creation made one poll")
    #expect(list["polls"]?.first?.id == key)
    let export = try await server.http("GET", "/api/polls/export")
    let specs = try JSONDecoder().decode([PollSpec].self, from: Data(export.body.utf8))
    #expect(specs.map(\.kind) == [.rating, .words, .single])
    #expect(specs.last?.correct == [1])

    let open = try await server.http("POST", "/api/polls/\(key)/open")
    #expect(open.status == 200 && open.body.contains(#""state":"open""#))
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x2C))
    _ = try await alice.snapshot()
    #expect(try await alice.answer(key, PollValue(rating: 9)).success)
    let shown = try await server.http("GET", "/api/polls")
    #expect(shown.body.contains(#""answers":1"#))

    let bad = try await server.http(
      "POST", "/api/polls", body: #"{"kind":"single","prompt":"x","options":["only one"]}"#,
      headers: Self.json)
    #expect(bad.status == 400)
    let nowhere = try await server.http("POST", "/api/polls/\(UUID())/open")
    #expect(nowhere.status == 404)
    // The results for after the talk, safe in a spreadsheet.
    let formula = try await server.http(
      "POST", "/api/polls", body: #"{"kind":"single","prompt":"=1+1","options":["=A","B"]}"#,
      headers: Self.json)
    #expect(formula.status == 200)
    let csv = try await server.http("GET", "/api/polls/results")
    #expect(csv.body.contains(#""1","rating","How was the talk?","open","1","9","1","100.0%",""#))
    #expect(csv.body.contains(#""'=1+1""#) && csv.body.contains(#""'=A""#))
    let markdown = try await server.http("GET", "/api/polls/results?format=markdown")
    #expect(markdown.body.hasPrefix("# Polls"))
    let scores = try await server.http("GET", "/api/polls/results?part=scores")
    #expect(scores.body.contains("attendee,name,score,answered"))
    let deleted = try await server.http("DELETE", "/api/polls/\(key)")
    #expect(deleted.status == 200 && !deleted.body.contains(key.uuidString))
  }
}
