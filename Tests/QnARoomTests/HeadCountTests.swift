import Foundation
import QnARoom
import QnAStore
import TestSupport
import Testing

/// The projector's head count (extension `audience`): who counts, and what an instance
/// writes of it, without a socket or a database.
@Suite("The head count")
struct HeadCountTests {
  static let talk: Int64 = 0
  static let other: Int64 = 3
  static let alice = uuid(1, group: 0xA1)
  static let bob = uuid(2, group: 0xA1)

  static func socket(_ number: Int) -> UUID { uuid(number, group: 0xC0) }

  @Test func anAttendeeCountsOnceHoweverManySockets() {
    var presence = AttendeePresence()
    // Two tabs of Alice's, Bob once.
    for socket in [1, 2] {
      presence.joined(
        socket: Self.socket(socket), session: Self.talk, role: .attendee, attendee: Self.alice)
    }
    presence.joined(
      socket: Self.socket(3), session: Self.talk, role: .attendee, attendee: Self.bob)
    // A socket joins again on a gap in the deltas: still once.
    presence.joined(
      socket: Self.socket(1), session: Self.talk, role: .attendee, attendee: Self.alice)
    #expect(presence.count(in: Self.talk) == 2)
    // One tab closes: Alice is still in the room; the other closes too: she is gone.
    presence.left(socket: Self.socket(1))
    #expect(presence.count(in: Self.talk) == 2)
    presence.left(socket: Self.socket(2))
    #expect(presence.count(in: Self.talk) == 1)
    #expect(presence.present == [PresentAttendee(session: Self.talk, attendee: Self.bob)])
    // Both were in the room since the last write, Alice's visit over already: both are the
    // session's attendees for good, once each; the next write has no one new.
    #expect(
      Set(presence.takeSeen()) == [
        PresentAttendee(session: Self.talk, attendee: Self.alice),
        PresentAttendee(session: Self.talk, attendee: Self.bob),
      ])
    #expect(presence.takeSeen().isEmpty)
  }

  @Test func onlyAnIdentityCountsNeverAScreenOrAPresenter() {
    var presence = AttendeePresence()
    // 30 sockets refused an identity (or still waiting for one), a screen, a presenter.
    for socket in 1...30 {
      presence.joined(
        socket: Self.socket(socket), session: Self.talk, role: .attendee, attendee: nil)
    }
    presence.joined(
      socket: Self.socket(31), session: Self.talk, role: .screen, attendee: nil)
    presence.joined(
      socket: Self.socket(32), session: Self.talk, role: .presenter, attendee: Self.bob)
    #expect(presence.count(in: Self.talk) == 0)
    #expect(presence.watched == [Self.talk])
    // One of them is issued an identity when it asks again: it counts from then on.
    presence.joined(
      socket: Self.socket(7), session: Self.talk, role: .attendee, attendee: Self.alice)
    #expect(presence.count(in: Self.talk) == 1)
    // Sockets that never had one leave: nothing changes.
    for socket in 1...6 { presence.left(socket: Self.socket(socket)) }
    #expect(presence.count(in: Self.talk) == 1)
    presence.left(socket: Self.socket(31))
    #expect(presence.watched.isEmpty)
    // Never a screen, a presenter, or a socket without an identity.
    #expect(presence.takeSeen() == [PresentAttendee(session: Self.talk, attendee: Self.alice)])
  }

  @Test func sessionsAreCountedApart() {
    var presence = AttendeePresence()
    presence.joined(
      socket: Self.socket(1), session: Self.talk, role: .attendee, attendee: Self.alice)
    presence.joined(
      socket: Self.socket(2), session: Self.other, role: .attendee, attendee: Self.alice)
    presence.joined(
      socket: Self.socket(3), session: Self.other, role: .screen, attendee: nil)
    #expect(presence.count(in: Self.talk) == 1)
    #expect(presence.count(in: Self.other) == 1)
    #expect(presence.present.count == 2)
    #expect(presence.watched == [Self.other])
  }

  @Test func anInstanceWritesWhatChangedAndEverythingWhenDue() {
    let instance = uuid(9, group: 0x1E)
    var writes = PresenceWrites(
      instance: instance, renewal: HeadCount.renewal, lifetime: HeadCount.lifetime)
    let alice = PresentAttendee(session: Self.talk, attendee: Self.alice)
    let bob = PresentAttendee(session: Self.talk, attendee: Self.bob)
    // Nobody yet: nothing to write.
    #expect(writes.next(present: [], now: 1000).isEmpty)
    // Alice arrives: her row, to lapse after the lifetime unless written again.
    let first = writes.next(present: [alice], now: 1000)
    #expect(first.arrived == [alice] && first.left.isEmpty && !first.complete)
    #expect(first.expiresAt == 1000 + 90 && first.instance == instance)
    writes.succeeded(first)
    // Nothing changed: nothing to write, however often asked.
    #expect(writes.next(present: [alice], now: 1001).isEmpty)
    // Bob arrives as Alice leaves: one write of both changes.
    let second = writes.next(present: [bob], now: 1002)
    #expect(second.arrived == [bob] && second.left == [alice] && !second.complete)
    // That write fails: the next one has every row, whatever the database kept.
    writes.failed(second)
    #expect(writes.isFailing)
    let retry = writes.next(present: [bob], now: 1003)
    #expect(retry.complete && retry.arrived == [bob] && retry.left.isEmpty)
    writes.succeeded(retry)
    #expect(!writes.isFailing)
    #expect(writes.next(present: [bob], now: 1032).isEmpty)
    // The renewal is due 30 s after the last complete write: every row again.
    let renewal = writes.next(present: [bob], now: 1033)
    #expect(renewal.complete && renewal.arrived == [bob] && renewal.expiresAt == 1033 + 90)
  }
}
