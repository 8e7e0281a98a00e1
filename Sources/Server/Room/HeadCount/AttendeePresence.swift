import Foundation
import QnAStore

/// Who counts in each session's head count on this instance (extension `audience`): the
/// attendees whose join was issued or proved an identity, each once however many sockets it
/// has. Never a screen or a presenter, nor a socket without an identity (refused one, or
/// waiting for it): sockets are free to open, identities are not. Also which sessions a
/// screen here watches.
package struct AttendeePresence: Sendable {
  /// What a socket's first join made it (`SocketConnection.isScreen`, `isPresenter`).
  package enum Role: Sendable {
    case attendee, presenter, screen
  }

  /// The attendee each counted socket joined as.
  private var counted: [UUID: PresentAttendee] = [:]
  /// How many counted sockets each attendee has here.
  private var sockets: [PresentAttendee: Int] = [:]
  /// The session each screen watches.
  private var screens: [UUID: Int64] = [:]
  /// Attendees who joined since the last `takeSeen`, gone again or not.
  private var seen: Set<PresentAttendee> = []

  package init() {}

  /// A socket joined `session`; `attendee`: the identity its join was issued or proved,
  /// `nil` while it has none. A socket joins again and again (on a gap in the deltas): it is
  /// counted once.
  package mutating func joined(socket: UUID, session: Int64, role: Role, attendee: UUID?) {
    switch role {
    case .screen: screens[socket] = session
    case .presenter: break
    case .attendee:
      guard let attendee else { return }
      let present = PresentAttendee(session: session, attendee: attendee)
      guard counted[socket] != present else { return }
      left(socket: socket)
      counted[socket] = present
      sockets[present, default: 0] += 1
      seen.insert(present)
    }
  }

  package mutating func left(socket: UUID) {
    screens[socket] = nil
    guard let present = counted.removeValue(forKey: socket) else { return }
    let remaining = (sockets[present] ?? 1) - 1
    sockets[present] = remaining > 0 ? remaining : nil
  }

  /// Every attendee present here, in every session.
  package var present: Set<PresentAttendee> { Set(sockets.keys) }

  /// The distinct attendees present here in `session`.
  package func count(in session: Int64) -> Int {
    sockets.keys.filter { $0.session == session }.count
  }

  /// The attendees who joined since the last call, for good; `putBack` after a write failed.
  package mutating func takeSeen() -> [PresentAttendee] {
    defer { seen = [] }
    return Array(seen)
  }

  package mutating func putBack(seen again: [PresentAttendee]) { seen.formUnion(again) }

  /// The sessions a screen here watches: the ones whose count is read.
  package var watched: Set<Int64> { Set(screens.values) }
}
