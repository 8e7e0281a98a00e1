import Foundation
import NIOCore
import QnA

/// Extension `audience`: the session's head count (`HeadCount`: its distinct attendees on
/// every instance), told to its screens on this instance when it changes, and to a screen as
/// it joins; one message, encoded and framed once, for every screen. The count comes at most
/// once per `HeadCount.interval`, so a screen is told at most that often. Kept by the
/// fan-out's one task.
struct RoomAudience {
  /// The count as last read; `nil` until a read since a screen came.
  private var count: Int?
  private var screens: [UUID: SocketConnection] = [:]
  /// Screens that joined since the last message: they are told the count even if it is the
  /// one the others know.
  private var untold: Set<UUID> = []
  private var lastSent: Int?

  /// A socket is in the room (its snapshot is on its way or sent). `true` for a screen,
  /// which is told the count at once, if it is known yet.
  mutating func arrived(_ connection: SocketConnection) -> Bool {
    guard connection.isScreen else { return false }
    screens[connection.id] = connection
    untold.insert(connection.id)
    return true
  }

  mutating func left(_ id: UUID) {
    screens[id] = nil
    untold.remove(id)
    // A screen that comes later waits for a fresh read rather than an old count.
    if screens.isEmpty {
      count = nil
      lastSent = nil
    }
  }

  /// The session's count, as just read.
  mutating func counted(_ count: Int) {
    guard !screens.isEmpty else { return }
    self.count = count
  }

  /// Tells the screens that need it, one message for all of them.
  mutating func tell(codec: WireCodec, deflaters: CompressorPool?) {
    if let (message, screens) = flush(codec: codec, deflaters: deflaters) {
      Broadcast.send([message], to: screens)
    }
  }

  /// The message, and the screens to get it: every screen when the count changed, else the
  /// new ones; `nil` when every screen knows the count already, or it is not known yet.
  private mutating func flush(codec: WireCodec, deflaters: CompressorPool?) -> (
    OutgoingMessage, [SocketConnection]
  )? {
    guard let count, !screens.isEmpty, lastSent != count || !untold.isEmpty else { return nil }
    let recipients =
      lastSent == count ? untold.compactMap { screens[$0] } : Array(screens.values)
    lastSent = count
    untold = []
    let bytes = codec.encode(.audience(Audience(count: count)))
    return (OutgoingMessage(bytes, deflaters: deflaters), recipients)
  }
}
