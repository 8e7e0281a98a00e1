import Foundation
import QnA
import QnAServer
import TestSupport
import Testing

/// The presenter's toolkit across instances: what a presenter does through one instance
/// reaches the attendees of another, by PostgreSQL's notices alone.
@Suite("qna-server: the presenter's toolkit across two instances", .serialized)
struct ToolkitAcrossInstancesTests {
  @Test func anAnnouncementThroughOneInstanceReachesTheRoomOnTheOther() async throws {
    let (one, two) = try await TwoInstanceTests.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    let bob = try await RoomMember.join(two, as: TwoInstanceTests.bob)
    _ = try await bob.snapshot()
    let made = try await one.http(
      "PUT", "/api/announcement", body: #"{"text":"Lunch is served"}"#,
      headers: TwoInstanceTests.bearer.merging(["Content-Type": "application/json"]) { $1 })
    #expect(made.status == 200)
    try await bob.waitForAnnouncement("Lunch is served")
    // Someone joining the other instance later gets it with the room.
    let carol = try await RoomMember.join(two, as: uuid(3, group: 0x2E))
    try await carol.waitForAnnouncementOnJoining("Lunch is served")
    // Cleared through the second instance's socket, heard on the first.
    let alice = try await RoomMember.join(one, as: TwoInstanceTests.alice)
    _ = try await alice.snapshot()
    let presenter = try await PresenterMember.join(two, token: TwoInstanceTests.admin)
    _ = try await presenter.member.snapshot()
    #expect(try await presenter.announce(nil).success)
    try await alice.waitForAnnouncement(nil)
  }
}

extension ToolkitAcrossInstancesTests {
  @Test func aWordListChangedThroughOneInstanceFiltersOnTheOtherAtOnce() async throws {
    let (one, two) = try await TwoInstanceTests.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    let alice = try Attendee(two.socketURL)
    let connection = try await alice.handshake()
    // The other instance has read the (empty) filter already: a change must reach it.
    #expect(try await alice.asked("frak before", as: connection).state == "live")
    let put = try await one.http(
      "PUT", "/api/filters/en", body: "frak\n", headers: TwoInstanceTests.bearer)
    #expect(put.status == 200)
    // The notice arrives within moments; each try asks a new question.
    var state: String?
    let started = ContinuousClock.now
    for attempt in 0..<40 {
      state = try await alice.asked("frak \(attempt)", as: connection).state
      if state == "review" { break }
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(state == "review")
    print("the list was in force on the other instance after \(ContinuousClock.now - started)")
  }
}

extension ToolkitAcrossInstancesTests {
  @Test func theQueueAndItsNextThroughOneInstanceReachTheRoomOnTheOther() async throws {
    let (one, two) = try await TwoInstanceTests.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    let alice = try await RoomMember.join(two, as: TwoInstanceTests.alice)
    _ = try await alice.snapshot()
    let id = try await alice.socket.askedQuestion("Across the queue?", as: alice.connection)
    let auth = TwoInstanceTests.bearer
    #expect(
      try await one.http("POST", "/api/questions/\(id.uuidString)/enqueue", headers: auth).status
        == 200)
    #expect(try await one.http("POST", "/api/queue/show", headers: auth).status == 200)
    _ = try await alice.socket.waitForMessage("the queue, shown") {
      if case .roomDelta(let delta) = $0 {
        delta.nextUp == NextUp(ids: [id], shown: true)
      } else {
        false
      }
    }
    #expect(try await one.http("POST", "/api/queue/next", headers: auth).status == 200)
    _ = try await alice.socket.waitForMessage("now answering") {
      if case .roomDelta(let delta) = $0 { delta.highlight?.id == id } else { false }
    }
  }
}

extension ToolkitAcrossInstancesTests {
  @Test func labelsAddedAndARelabelThroughOneInstanceReachTheOther() async throws {
    let (one, two) = try await TwoInstanceTests.pair()
    defer {
      Task {
        await one.stop()
        await two.stop()
      }
    }
    let bob = try await RoomMember.join(two, as: TwoInstanceTests.bob)
    _ = try await bob.snapshot()
    let added = try await one.http(
      "POST", "/api/labels", body: #"{"name":"Keynote"}"#,
      headers: TwoInstanceTests.bearer.merging(["Content-Type": "application/json"]) { $1 })
    #expect(added.status == 200)
    _ = try await bob.socket.waitForMessage("the label") {
      if case .roomDelta(let delta) = $0 { delta.labels == ["Keynote"] } else { false }
    }
    // Bob asks under it on the second instance; a presenter on the first takes it off.
    let asked = try await bob.askUnder("Keynote", "Across instances?")
    let id = try #require(asked.id)
    let presenter = try await PresenterMember.join(one, token: TwoInstanceTests.admin)
    _ = try await presenter.member.snapshot()
    #expect(try await presenter.act(.relabel, id, text: nil).success)
    _ = try await bob.socket.waitForMessage("no label now") {
      guard case .roomDelta(let delta) = $0 else { return false }
      return delta.questions.contains { $0.id == id && $0.label == nil }
    }
  }
}
