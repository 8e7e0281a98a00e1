import Foundation
import QnA
import QnARoom
import QnAServer
import TestSupport
import Testing

/// Extension `moderation` on a server with its default settings: an edit reaches the room
/// and its asker (who sees the new text), the original stays with the presenters' log; a
/// silenced asker's new questions wait in review, and nobody but presenters learns who.
@Suite("qna-server: edits and silenced askers", .serialized)
struct ModerationServerTests {
  static let alice = uuid(1, group: 0xE3)
  static let bob = uuid(2, group: 0xE3)

  @Test func anEditReachesTheRoomAndTheAskerAndKeepsTheOriginal() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: Self.alice)
    _ = try await alice.snapshot()
    let bob = try await RoomMember.join(server, as: Self.bob)
    _ = try await bob.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let token = UUID()
    let id = try await alice.socket.askedQuestion(
      "Waht is teh plan?", as: alice.connection, token: token)
    #expect(try await presenter.act(.edit, id, text: "What is the plan?").success)
    // Everyone's room: the new text, marked edited.
    _ = try await bob.socket.waitForMessage("the edit") {
      if case .roomDelta(let delta) = $0 {
        delta.questions.contains { $0.content == "What is the plan?" && $0.edited == true }
      } else {
        false
      }
    }
    // The asker is told, on the connection that asked.
    let told = try await alice.socket.waitForMessage("told") {
      if case .questionResponse(let response) = $0 {
        response.token == token && response.content == "What is the plan?"
      } else {
        false
      }
    }
    #expect("\(told)".contains("The presenter edited your question."))
    #expect(!bob.wire.contains("Waht is teh plan?") || bob.wire.contains("\"Waht is teh plan?\""))
    // The API keeps the original and the log each text.
    let history = try await server.http("GET", "/api/questions/\(id.uuidString)/history")
    #expect(
      history.body.contains("\"action\":\"edit\"") && history.body.contains("What is the plan?"))
    let listed = try await server.http("GET", "/api/questions")
    #expect(listed.body.contains("\"original\":\"Waht is teh plan?\""))
    // Refused in words: no text, an empty one, one too long.
    for text in [nil, "   ", String(repeating: "x", count: 1001)] {
      let refused = try await presenter.act(.edit, id, text: text)
      #expect(!refused.success, "\(String(describing: text?.prefix(10)))")
    }
    let api = try await server.http(
      "POST", "/api/questions/\(id.uuidString)/edit", body: #"{"text":"Via the API?"}"#,
      headers: ["Content-Type": "application/json"])
    #expect(api.status == 200 && api.body.contains("Via the API?"))
    #expect(
      try await server.http("POST", "/api/questions/\(id.uuidString)/edit", body: "{}").status
        == 400)
  }

  @Test func aSilencedAskersNewQuestionsWaitInReviewUntilUndone() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: Self.alice)
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    let first = try await alice.socket.askedQuestion("Buy my product", as: alice.connection)
    #expect(try await presenter.act(.silence, first).success)
    let next = try await alice.socket.asked("Buy it now", as: alice.connection)
    #expect(next.state == "review")
    #expect(next.message == RoomReplies.inReview, "not told who, or why")
    let id = try #require(next.id)
    try await presenter.member.waitForState(id, .review)
    let marked = presenter.member.deltas.flatMap(\.questions).first { $0.id == id }
    #expect(marked?.flagged == [WordFilters.silencedMark])
    // Across reconnects: the attendee is who they are.
    let credential = try await alice.credential()
    await alice.socket.close()
    let back = try await RoomMember.join(server, as: Self.alice, credential: credential)
    _ = try await back.snapshot()
    #expect(try await back.socket.asked("Still here", as: back.connection).state == "review")
    // Undone: live again.
    #expect(try await presenter.act(.unsilence, first).success)
    #expect(try await back.socket.asked("Reformed", as: back.connection).state == "live")
    // An attendee may not silence anyone.
    try await back.socket.send(
      .presenterAction(
        PresenterAction(id: back.connection, token: UUID(), question: first, action: .silence)))
    _ = try await back.socket.waitForMessage("refused") {
      if case .presenterActionResponse(let response) = $0 { !response.success } else { false }
    }
  }
}
