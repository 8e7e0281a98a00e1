import Foundation
import QnA
import QnAServer
import TestSupport
import Testing

/// Extension `queue` over sockets and the API: the presenters order the next questions and
/// advance the highlight with one action; the room sees the queue only when shown.
@Suite("qna-server: stars and the next-up queue", .serialized)
struct QueueServerTests {
  @Test func thePanelsQueueAdvancesTheHighlightAndTheRoomSeesItWhenShown() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await RoomMember.join(server, as: uuid(1, group: 0x0E))
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(server)
    _ = try await presenter.member.snapshot()
    var asked: [UUID] = []
    for n in 1...3 {
      asked.append(
        try await alice.socket.askedQuestion("Panel question \(n)", as: alice.connection))
    }
    let ids = asked
    for id in ids.reversed() { #expect(try await presenter.act(.enqueue, id).success) }
    #expect(try await presenter.act(.star, ids[0]).success)
    _ = try await presenter.member.socket.waitForMessage("the queue") {
      if case .roomDelta(let delta) = $0 { delta.nextUp?.ids == ids.reversed() } else { false }
    }
    #expect(!alice.wire.contains("nextUp\":{\"ids\":[\""), "hidden: attendees get none")
    #expect(!alice.wire.contains("starred"))
    // Shown: every attendee sees the order.
    let shown = try await server.http("POST", "/api/queue/show")
    #expect(shown.status == 200 && shown.body.contains("\"shown\":true"))
    _ = try await alice.socket.waitForMessage("shown") {
      if case .roomDelta(let delta) = $0 { delta.nextUp?.shown == true } else { false }
    }
    // One action: the first queued question is being answered now, and leaves the queue.
    let next = try await server.http("POST", "/api/queue/next")
    #expect(next.status == 200)
    _ = try await alice.socket.waitForMessage("now answering") {
      if case .roomDelta(let delta) = $0 { delta.highlight?.id == ids[2] } else { false }
    }
    let queue = try await server.http("GET", "/api/queue")
    #expect(queue.body.contains(ids[1].uuidString) && !queue.body.contains(ids[2].uuidString))
    // A new joiner gets the queue with the room.
    let bob = try await RoomMember.join(server, as: uuid(2, group: 0x0E))
    #expect(try await bob.snapshot().allSatisfy { $0.nextUp?.ids == [ids[1], ids[0]] })
    // Hostile: an unknown question, an attendee's action, a queue beyond its length.
    let unknown = try await presenter.act(.enqueue, UUID())
    #expect(!unknown.success)
    try await alice.socket.send(
      .presenterAction(
        PresenterAction(id: alice.connection, token: UUID(), question: nil, action: .next)))
    _ = try await alice.socket.waitForMessage("refused") {
      if case .presenterActionResponse(let response) = $0 { !response.success } else { false }
    }
  }
}
