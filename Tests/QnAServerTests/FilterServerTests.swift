import Foundation
import QnA
import QnARoom
import QnAServer
import TestSupport
import Testing

extension Attendee {
  /// Asks `content` under `token` and returns the server's reply to it.
  func asked(_ content: String, as connection: UUID, token: UUID = UUID()) async throws
    -> QuestionResponse
  {
    try await ask(content, as: connection, token: token)
    let message = try await waitForMessage("the reply", occurrence: 0) {
      if case .questionResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .questionResponse(let response) = message else {
      throw ServerTestError.unexpected(message)
    }
    return response
  }
}

/// The session's word filter on a server with its default settings (no `--moderation`):
/// a match waits in review, marked for presenters only, or is refused when the filter says
/// so; lists come from the API, the presenter's socket or `--word-list`; hostile lists are
/// refused in words, cheaply.
@Suite("qna-server: the word filter", .serialized)
struct FilterServerTests {
  static let json = ["Content-Type": "application/json"]

  @Test func aMatchWaitsInReviewMarkedForPresentersOnlyAndScunthorpePasses() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let put = try await server.http("PUT", "/api/filters/en", body: "# mine\ndarn\n\nheck\n")
    #expect(put.status == 200 && put.body.contains("\"entries\":2"))
    let bob = try await RoomMember.join(server, as: uuid(2, group: 0xF0))
    _ = try await bob.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let alice = try Attendee(server.socketURL)
    let connection = try await alice.handshake()
    let filtered = try await alice.asked("What the d@rn is this?", as: connection)
    #expect(filtered.success && filtered.state == "review")
    #expect(filtered.message == RoomReplies.inReview, "the asker is not told which word")
    let id = try #require(filtered.id)
    try await presenter.member.waitForState(id, .review)
    let marked = presenter.member.deltas.flatMap(\.questions).first { $0.id == id }
    #expect(marked?.flagged == ["darn"])
    // A town with a word inside it is a town.
    let town = try await alice.asked("Is Scunthorpe far from Sheffield?", as: connection)
    #expect(town.state == "live")
    _ = try await bob.socket.waitForMessage("the town") {
      if case .roomDelta(let delta) = $0 {
        delta.questions.contains { $0.content.contains("Scunthorpe") }
      } else {
        false
      }
    }
    #expect(!bob.wire.contains("d@rn") && !bob.wire.contains("flagged"))
    // The API and the export say what matched.
    let listed = try await server.http("GET", "/api/questions")
    #expect(listed.body.contains("\"flagged\":[\"darn\"]"))
    let export = try await server.http("GET", "/api/export?format=json")
    #expect(export.body.contains("\"flagged\" : [\n      \"darn\"\n    ]"))
    // Approved, it goes live like any other, still marked for the record.
    #expect(try await presenter.act(.approve, id).success)
    _ = try await bob.socket.waitForMessage("approved") {
      if case .roomDelta(let delta) = $0 { delta.questions.contains { $0.id == id } } else { false }
    }
  }

  @Test func refusingModeRefusesForGoodButNeverAQuestionAlreadyStored() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    _ = try await server.http("PUT", "/api/filters/en", body: "darn\n")
    let alice = try Attendee(server.socketURL)
    let connection = try await alice.handshake()
    let token = UUID()
    #expect(try await alice.asked("darn it", as: connection, token: token).state == "review")
    let mode = try await server.http(
      "PUT", "/api/filters", body: #"{"mode":"refuse"}"#, headers: Self.json)
    #expect(mode.status == 200 && mode.body.contains("\"mode\":\"refuse\""))
    // A resend of the stored one (a reconnect) is the stored one.
    try await alice.ask("darn it", as: connection, token: token)
    let resent = try await alice.waitForMessage("the resend's reply", occurrence: 1) {
      if case .questionResponse(let response) = $0 { response.token == token } else { false }
    }
    #expect("\(resent)".contains("success: true"))
    let refused = try await alice.asked("darn again", as: connection)
    #expect(!refused.success && refused.retryAfter == nil)
    #expect(refused.message == RoomReplies.filtered)
    // The page's form says so in words, with 422.
    let form = try await server.http(
      "POST", "/room/ask", body: "content=darn+form&token=\(UUID().uuidString)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    #expect(form.status == 422 && form.body.contains("words the organisers filter out"))
  }

  @Test func hostileListsAreRefusedInWordsAndCheaply() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let huge = (0..<100_000).map { "word\($0)" }.joined(separator: "\n")
    let started = ContinuousClock.now
    let tooMany = try await server.http("PUT", "/api/filters/en", body: huge)
    #expect(tooMany.status == 400 && tooMany.body.contains("at most 20000 entries"))
    print("100,000-entry list refused in \(ContinuousClock.now - started)")
    let pattern = try await server.http("PUT", "/api/filters/en", body: "darn\nf.*k\n(a|b)\n")
    #expect(pattern.status == 400)
    #expect(pattern.body.contains("line 2: Entries are words or phrases, not patterns"))
    #expect(pattern.body.contains("line 3:"))
    let long = try await server.http(
      "PUT", "/api/filters/en", body: String(repeating: "x", count: 10_000))
    #expect(long.status == 400 && long.body.contains("at most 64 characters"))
    let tooBig = try await server.http(
      "PUT", "/api/filters/en", body: String(repeating: "word\n", count: 500_000))
    #expect(tooBig.status == 413)
    #expect(try await server.http("PUT", "/api/filters/EN%20US", body: "darn").status == 400)
    #expect(try await server.http("GET", "/api/filters/nothing").status == 404)
    let badMode = try await server.http(
      "PUT", "/api/filters", body: #"{"mode":"delete"}"#, headers: Self.json)
    #expect(badMode.status == 400)
    let edit = try await server.http(
      "POST", "/api/filters/en", body: #"{"add":["^ass$"]}"#, headers: Self.json)
    #expect(edit.status == 400 && edit.body.contains("not patterns"))
    // Nothing of it was kept.
    #expect(try await server.http("GET", "/api/filters").body.contains("\"lists\":[]"))
  }

  @Test func thePresentersSocketAddsAndTakesOutWords() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let handshakes = presenter.member.socket.messages.compactMap { try? $0.get() }.compactMap {
      if case .handshake(let handshake) = $0 { handshake } else { nil }
    }
    #expect(handshakes.first?.extensions?.contains(ProtocolExtension.wordFilter) == true)
    let alice = try Attendee(server.socketURL)
    let connection = try await alice.handshake()
    let attendeeHandshake = alice.messages.compactMap { try? $0.get() }.first
    #expect(!"\(String(describing: attendeeHandshake))".contains(ProtocolExtension.wordFilter))
    #expect(try await presenter.filter(.filterAdd, "frak").success)
    #expect(try await alice.asked("frak this", as: connection).state == "review")
    #expect(try await presenter.filter(.filterRemove, "frak").success)
    #expect(try await alice.asked("frak that", as: connection).state == "live")
    let pattern = try await presenter.filter(.filterAdd, "f.*k")
    #expect(!pattern.success && pattern.message?.contains("not patterns") == true)
    let badList = try await presenter.filter(.filterAdd, "darn", list: "Not A Name")
    #expect(!badList.success)
    #expect(try await server.http("GET", "/api/filters/custom").status == 404, "empty: gone")
  }

  @Test func theServersOwnListsApplyToEverySession() async throws {
    let server = try await ServerUnderTest { $0.wordLists = ["en": ["darn"], "de": ["mist"]] }
    defer { Task { await server.stop() } }
    let alice = try Attendee(server.socketURL)
    let connection = try await alice.handshake()
    #expect(try await alice.asked("Mist!", as: connection).state == "review")
    let filters = try await server.http("GET", "/api/filters")
    #expect(filters.body.contains("\"name\":\"de\"") && filters.body.contains("\"server\":true"))
    #expect(try await server.http("GET", "/api/filters/en").body == "darn\n")
  }
}

extension PresenterMember {
  /// `filterAdd` or `filterRemove` of one entry, and its outcome.
  func filter(_ kind: PresenterActionKind, _ entry: String, list: String? = nil) async throws
    -> PresenterActionResponse
  {
    try await act(kind, nil, text: entry, list: list)
  }
}
