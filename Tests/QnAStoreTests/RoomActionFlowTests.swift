import Foundation
import QnA
import QnAStore
import Testing

/// A room action's flow is written once, in the store, and run by either driver
/// (`RoomActionStoreTests`, `QueueStoreTests` and `LabelStoreTests` run them on both
/// databases). Here each flow runs in memory: what it reads decides what it writes.
@Suite("Room actions as one flow for both databases")
struct RoomActionFlowTests {
  let first = UUID()
  let second = UUID()
  let now = Date(timeIntervalSinceReferenceDate: 1000)

  @Test func anAnnouncementWritesItsValueAndItsLogRowOnlyWhenTheBannerChanges() throws {
    let shown = StoreRules.announcementValue("Coffee at 3", at: now)
    let new = try RoomActionFlow.announce("Lunch", at: now).run(state: [:]).get()
    #expect(
      new == [
        .state("announcement", StoreRules.announcementValue("Lunch", at: now)),
        .log(nil, .announcement),
      ])
    let same = RoomActionFlow.announce("Coffee at 3", at: now)
    #expect(try same.run(state: ["announcement": shown]).get() == nil)
    let cleared = try RoomActionFlow.announce(nil, at: now).run(
      state: ["announcement": shown]
    ).get()
    #expect(cleared == [.state("announcement", nil), .log(nil, .announcement)])
    #expect(try RoomActionFlow.announce(nil, at: now).run(state: [:]).get() == nil)
  }

  @Test func nextHighlightsTheFirstOpenQueuedQuestionAndKeepsTheRest() throws {
    let third = UUID()
    let queue = StoreRules.queueValue([first, second, third])!
    // The first is answered or gone: the second is next, the third stays queued.
    let writes = try RoomActionFlow.queue(.next).run(
      state: ["queue": queue], open: [second, third]
    ).get()
    #expect(
      writes == [
        .state("highlighted", second.uuidString), .log(second, .highlight),
        .state("queue", StoreRules.queueValue([third])), .log(nil, .queue),
      ])
    let empty = RoomActionFlow.queue(.next).run(state: ["queue": queue], open: [])
    #expect(throws: StoreRules.ActionRefusal.self) { try empty.get() }
  }

  @Test func showingTheQueueTwiceChangesTheRoomOnce() throws {
    let shown = try RoomActionFlow.queue(.showQueue).run(state: [:]).get()
    #expect(shown == [.state("queueShown", "1"), .log(nil, .queue)])
    #expect(try RoomActionFlow.queue(.showQueue).run(state: ["queueShown": "1"]).get() == nil)
    let hidden = try RoomActionFlow.queue(.hideQueue).run(state: ["queueShown": "1"]).get()
    #expect(hidden == [.state("queueShown", "0"), .log(nil, .queue)])
    let other = RoomActionFlow.queue(.answer).run(state: [:])
    #expect(throws: StoreRules.ActionRefusal.self) { try other.get() }
  }

  @Test func aLabelIsAddedOnceAndRemovedOnce() throws {
    let added = try RoomActionFlow.labels(.labelAdd, "Ops").run(state: [:]).get()
    #expect(added == [.state("labels", "Ops"), .log(nil, .labels)])
    #expect(try RoomActionFlow.labels(.labelAdd, "Ops").run(state: ["labels": "Ops"]).get() == nil)
    let removed = try RoomActionFlow.labels(.labelRemove, "Ops").run(state: ["labels": "Ops"])
      .get()
    #expect(removed == [.state("labels", nil), .log(nil, .labels)])
  }

  /// Attendees see nothing of the filter: no log row, only the other instances are told.
  @Test func theFilterModeTellsTheOtherInstancesWithoutALogRow() throws {
    let writes = try RoomActionFlow.filterMode(.refuse).run(state: [:]).get()
    #expect(writes == [.state("filterMode", "refuse"), .tellOthers(.filter)])
  }
}
