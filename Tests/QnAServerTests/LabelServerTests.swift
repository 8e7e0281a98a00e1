import Foundation
import QnA
import QnAServer
import TestSupport
import Testing

extension RoomMember {
  /// Asks `content` under `label` and waits for the server's response to it.
  func askUnder(_ label: String, _ content: String) async throws -> QuestionResponse {
    let token = UUID()
    try await socket.send(
      .newQuestion(NewQuestion(id: connection, content: content, token: token, label: label)))
    let message = try await socket.waitForMessage("response") {
      if case .questionResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .questionResponse(let response) = message else {
      throw ServerTestError.unexpected(message)
    }
    return response
  }
}

/// Extension `labels` over sockets and the API: presenters keep the session's labels,
/// attendees ask under one, presenters relabel, and every list and the export filter by one;
/// what is no label of the session is refused in words, for good.
@Suite("qna-server: labels", .serialized)
struct LabelServerTests {
  @Test func attendeesAskUnderTheSessionsLabelsAndPresentersRelabel() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x1A))
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    #expect(try await presenter.act(.labelAdd, nil, text: "Keynote").success)
    let added = try await server.http(
      "POST", "/api/labels", body: #"{"name":"Panel Q&A"}"#,
      headers: ["Content-Type": "application/json"])
    #expect(added.status == 200 && added.body.contains("Panel Q&A"))
    _ = try await alice.socket.waitForMessage("the labels") {
      if case .roomDelta(let delta) = $0 {
        delta.labels == ["Keynote", "Panel Q&A"]
      } else {
        false
      }
    }
    // Asked under a label (whatever its case): the room sees it as the session spells it.
    let asked = try await alice.askUnder("keynote", "What comes after the keynote?")
    #expect(asked.success)
    let id = try #require(asked.id)
    _ = try await alice.socket.waitForMessage("labelled") {
      guard case .roomDelta(let delta) = $0 else { return false }
      return delta.questions.contains { $0.id == id && $0.label == "Keynote" }
    }
    let other = try await alice.socket.askedQuestion("No label here", as: alice.connection)
    // Relabelled by a presenter, over the socket and the API.
    #expect(try await presenter.act(.relabel, other, text: "Panel Q&A").success)
    let relabelled = try await server.http(
      "POST", "/api/questions/\(id)/relabel", body: #"{"label":"panel q&a"}"#,
      headers: ["Content-Type": "application/json"])
    #expect(relabelled.status == 200 && relabelled.body.contains(#""label":"Panel Q&A""#))
    // Every list filters by label: the API's, the export.
    let panel = try await server.http("GET", "/api/questions?label=pAnEl%20q%26a")
    #expect(panel.body.contains(id.uuidString) && panel.body.contains(other.uuidString))
    // Named in any case.
    let keynote = try await server.http("GET", "/api/questions?label=KEYNOTE")
    #expect(keynote.body == "[]")
    let export = try await server.http("GET", "/api/export?label=Panel%20Q%26A")
    #expect(export.body.contains("original,starred,label"))
    #expect(export.body.contains("\"Panel Q&A\"") && export.body.contains("No label here"))
    // A new joiner gets the labels with the room.
    let bob = try await RoomMember.join(server, as: uuid(2, group: 0x1A))
    #expect(try await bob.snapshot().allSatisfy { $0.labels == ["Keynote", "Panel Q&A"] })
    // Removed: the questions keep it; new questions under it are refused.
    let removed = try await server.http("DELETE", "/api/labels?name=panel%20q%26a")
    #expect(removed.status == 200 && !removed.body.contains("Panel"))
    #expect(try await server.http("GET", "/api/questions?label=Panel%20Q%26A").body != "[]")
    let refused = try await alice.askUnder("Panel Q&A", "Too late for the panel?")
    #expect(!refused.success && refused.message.contains("no label"))
    #expect(refused.retryAfter == nil, "final: sending it again cannot help")
  }

  @Test func whatIsNoLabelIsRefusedInWordsAndCostsNothing() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x1B))
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let long = String(repeating: "x", count: 10_000)
    // A 10,000-character label: refused before the store, as a question and as a name.
    let asked = try await alice.askUnder(long, "Long label?")
    #expect(!asked.success && asked.message.contains("at most 40"))
    #expect(asked.message.count < 200, "the refusal does not echo the label")
    for (name, words) in [
      (long, "at most 40"), ("two\nlines", "one line"), ("  ", "needs a name"),
      ("\u{202E}reversed", "one line"), ("Key\u{200D}note", "invisible"),
      (String(repeating: "e\u{301}\u{301}\u{301}", count: 40), "at most 40"),
    ] {
      let response = try await presenter.act(.labelAdd, nil, text: name)
      #expect(!response.success && response.message?.contains(words) == true, "\(words)")
    }
    for body in [#"{"name":"\#(long)"}"#, #"{"nam":"typo"}"#, "not json"] {
      let response = try await server.http(
        "POST", "/api/labels", body: body, headers: ["Content-Type": "application/json"])
      #expect(response.status == 400, "\(body.prefix(30))")
    }
    #expect(try await server.http("GET", "/api/questions?label=\(long)").status == 400)
    // Unknown labels: on a session without labels, then beside the session's.
    let none = try await alice.askUnder("Keynote", "Under what?")
    #expect(!none.success && none.message.contains("no labels"))
    for n in 1...SessionLabels.maxCount {
      #expect(try await presenter.act(.labelAdd, nil, text: "Track \(n)").success)
    }
    let over = try await presenter.act(.labelAdd, nil, text: "Track 21")
    #expect(!over.success && over.message?.contains("at most 20") == true)
    let unknown = try await alice.askUnder("Track 99", "Which track?")
    #expect(!unknown.success && unknown.message.contains("Track 1,"))
    let question = try await alice.socket.askedQuestion("Unlabelled", as: alice.connection)
    let relabel = try await presenter.act(.relabel, question, text: "Track 99")
    #expect(!relabel.success && relabel.message?.contains("no label") == true)
    let viaAPI = try await server.http(
      "POST", "/api/questions/\(question)/relabel", body: #"{"label":"Track 99"}"#,
      headers: ["Content-Type": "application/json"])
    #expect(viaAPI.status == 409)
    // An attendee may not change the labels.
    try await alice.socket.send(
      .presenterAction(
        PresenterAction(
          id: alice.connection, token: UUID(), question: nil, action: .labelAdd, text: "Mine")))
    _ = try await alice.socket.waitForMessage("refusal") {
      if case .presenterActionResponse(let response) = $0 { !response.success } else { false }
    }
    #expect(!(try await server.http("GET", "/api/labels").body.contains("Mine")))
    // Twenty labels of forty four-byte characters still leave a snapshot page under 16 KiB.
    let wide = String(repeating: "𝄞", count: 40)
    for n in 1...SessionLabels.maxCount {
      _ = try await presenter.act(.labelRemove, nil, text: "Track \(n)")
      #expect(try await presenter.act(.labelAdd, nil, text: "\(n)" + wide.dropFirst(2)).success)
    }
    let carol = try await RoomMember.join(server, as: uuid(3, group: 0x1B))
    #expect(try await carol.snapshot().allSatisfy { $0.labels?.count == SessionLabels.maxCount })
  }
}
