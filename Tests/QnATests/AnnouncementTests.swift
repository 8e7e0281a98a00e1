import Foundation
import QnA
import TestSupport
import Testing

/// Extension `announcements` in the client's state: the banner from snapshots and deltas,
/// told once when it changes, bounded whatever a server sends.
@Suite("QnAState: the presenter's announcement")
struct AnnouncementTests {
  typealias Driver = StateDriver

  static func snapshot(_ announcement: Announcement?, seq: Int) -> QnAEvent {
    .received(
      .room(
        RoomSnapshot(
          seq: seq, part: 1, parts: 1, questions: [], epoch: Driver.roomEpoch,
          announcement: announcement)))
  }

  @Test func theBannerComesWithTheRoomAndChangesWithItsDeltas() {
    var driver = Driver()
    driver.enterRoom()
    #expect(driver.state.room.announcement == nil)
    var effects = driver.apply(
      .received(.roomDelta(RoomDelta(from: 1, to: 1, announcement: Announcement(text: "Break")))))
    #expect(driver.state.room.announcement?.text == "Break")
    #expect(effects.changes.first == .announcement("Break"))
    #expect(effects.notices.contains("Announcement: Break"))
    // A reconnect's snapshot that repeats it says nothing again.
    effects = driver.apply(Self.snapshot(Announcement(text: "Break"), seq: 1))
    #expect(effects.changes.filter { $0 == .announcement("Break") }.isEmpty)
    // `{}` clears it.
    effects = driver.apply(
      .received(.roomDelta(RoomDelta(from: 2, to: 2, announcement: Announcement()))))
    #expect(driver.state.room.announcement == nil)
    #expect(effects.changes.first == .announcement(nil))
    #expect(effects.notices.contains("The announcement was cleared."))
  }

  @Test func aHostileServersBannerIsCutToTheLengthOursAllows() {
    var driver = Driver()
    driver.enterRoom()
    driver.apply(Self.snapshot(Announcement(text: String(repeating: "x", count: 100_000)), seq: 3))
    #expect(driver.state.room.announcement?.text?.count == Announcement.maxLength)
    // An empty text is no banner.
    driver.apply(
      .received(.roomDelta(RoomDelta(from: 4, to: 4, announcement: Announcement(text: "")))))
    #expect(driver.state.room.announcement == nil)
  }

  @Test func theConsoleSendsAnnouncementsOnlyToAServerThatHasThem() {
    var presenter = Driver(configuration: QnAConfiguration(presenter: true))
    presenter.enterRoom()
    let effects = presenter.apply(.act(.announce, question: nil, text: "Hi", token: uuid(1)))
    #expect(effects.notices.contains("This server has no announcements."))
    #expect(presenter.state.desk.queue.isEmpty)
  }
}
