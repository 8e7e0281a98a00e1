import Foundation

/// One attendee in one session's room, as the head count (extension `audience`) keeps it.
package struct PresentAttendee: Sendable, Hashable {
  package var session: Int64
  package var attendee: UUID

  package init(session: Int64, attendee: UUID) {
    self.session = session
    self.attendee = attendee
  }
}

/// One instance's write of the attendees it has in its rooms: each row says "this instance
/// has this attendee in this session" until `expiresAt`, so that a killed instance's rows
/// lapse on their own. Times are seconds since 1970.
package struct PresenceChanges: Sendable, Equatable {
  /// The instance whose rows these are.
  package var instance: UUID
  /// Rows that lapsed by now are not counted (and go with a complete write).
  package var now: Double
  /// Until when the rows written here count, unless written again.
  package var expiresAt: Double
  package var arrived: [PresentAttendee]
  package var left: [PresentAttendee]
  /// `arrived` is every attendee the instance has: its other rows go, and so does any
  /// instance's row that lapsed.
  package var complete: Bool

  package init(
    instance: UUID, now: Double, expiresAt: Double, arrived: [PresentAttendee] = [],
    left: [PresentAttendee] = [], complete: Bool = false
  ) {
    self.instance = instance
    self.now = now
    self.expiresAt = expiresAt
    self.arrived = arrived
    self.left = left
    self.complete = complete
  }

  /// Attendees who joined since the last write, gone again or not: each is one of its
  /// session's attendees for good (its report's count), however short the visit.
  package var seen: [PresentAttendee] = []

  /// Nothing to write.
  package var isEmpty: Bool { arrived.isEmpty && left.isEmpty && !complete && seen.isEmpty }
}
