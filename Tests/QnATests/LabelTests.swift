import Foundation
import QnA
import TestSupport
import Testing

/// Extension `labels` in the client's state: the session's labels from snapshots and deltas
/// (bounded whatever a server sends), and the label the attendee's questions go under.
@Suite("QnAState: the session's labels")
struct LabelTests {
  typealias Driver = StateDriver

  static let extensions = Driver.roomExtensions + [ProtocolExtension.labels]

  static func snapshot(_ labels: [String]?, seq: Int = 1) -> QnAEvent {
    .received(
      .room(
        RoomSnapshot(
          seq: seq, part: 1, parts: 1, questions: [], epoch: Driver.roomEpoch, labels: labels)))
  }

  /// Joined a server with labels; the room not in yet.
  static func connected(label: String? = nil) -> Driver {
    var driver = Driver()
    driver.apply(.identity(attendee: Driver.attendee, name: nil))
    if let label { driver.apply(.label(label)) }
    driver.connect(extensions: extensions)
    return driver
  }

  @Test func aQuestionUnderALabelWaitsForTheRoomThenGoesAsTheSessionSpellsIt() {
    var driver = Self.connected(label: "keynote")
    // Before the room: it waits (the room says how the session spells its labels).
    #expect(driver.ask("Early?", 1).sent.isEmpty)
    let effects = driver.apply(Self.snapshot(["Keynote", "Panel"]))
    #expect(effects.notices.contains("Your next questions go under “Keynote”."))
    #expect(effects.sent.map(\.label) == ["Keynote"])
    #expect(driver.state.askLabel == "Keynote")
    #expect(driver.ask("Later?", 2).sent.first?.label == "Keynote")
    // A presenter removes it: said, and the next questions go without one.
    let removed = driver.apply(.received(.roomDelta(RoomDelta(from: 2, to: 2, labels: ["Panel"]))))
    #expect(removed.notices.contains("This session has no label “Keynote”; its labels: Panel."))
    #expect(driver.state.askLabel == nil)
    #expect(driver.ask("After?", 3).sent.first?.label == nil)
    // Added again: taken up again.
    let back = driver.apply(
      .received(.roomDelta(RoomDelta(from: 3, to: 3, labels: ["Panel", "Keynote"]))))
    #expect(back.notices.contains("Your next questions go under “Keynote”."))
  }

  @Test func aLabelTheSessionLacksIsSaidWithItsLabels() {
    var driver = Self.connected(label: "Closing")
    #expect(driver.ask("Typed early?", 1).sent.isEmpty)
    let effects = driver.apply(Self.snapshot(["Keynote"]))
    #expect(effects.notices.contains("This session has no label “Closing”; its labels: Keynote."))
    #expect(effects.sent.map(\.label) == [nil], "it goes, without the label the session lacks")
    #expect(driver.ask("Which?", 2).sent.first?.label == nil)
    var none = Self.connected(label: "Closing")
    #expect(
      none.apply(Self.snapshot(nil)).notices.contains(
        "This session has no label “Closing”: your questions go without one."))
  }

  @Test func aServerWithoutLabelsGetsNone() {
    var driver = Driver()
    driver.apply(.label("Keynote"))
    driver.enterRoom()
    #expect(driver.ask("Plain?", 1).sent.first?.label == nil, "not sent to a server without it")
  }

  @Test func aHostileServersLabelsAreCutToOurBounds() {
    var driver = Self.connected()
    let many = (0..<1000).map { "L\($0)" + String(repeating: "x", count: 10_000) }
    driver.apply(Self.snapshot(many + ["", "L0" + String(repeating: "x", count: 38)]))
    #expect(driver.state.room.labels.count == SessionLabels.maxCount)
    #expect(driver.state.room.labels.allSatisfy { $0.count <= SessionLabels.maxLength })
    #expect(Set(driver.state.room.labels).count == driver.state.room.labels.count, "each once")
  }
}
