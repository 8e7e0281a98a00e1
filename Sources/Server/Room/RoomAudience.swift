import Foundation
import NIOCore
import QnA

/// Extension `audience`: how many attendees the room has on this instance (joined sockets,
/// less presenters and screens), told to its screens at most once per `interval` while it
/// changes — one message, encoded and framed once, for every screen. Kept by the fan-out's
/// one task.
struct RoomAudience {
  static let interval: Duration = .seconds(1)
  private var counted: Set<UUID> = []
  private var screens: [UUID: SocketConnection] = [:]
  private var lastSent: Int?
  /// A flush is on its way.
  var scheduled = false

  var count: Int { counted.count }

  /// A socket is in the room (its snapshot is on its way or sent).
  mutating func arrived(_ connection: SocketConnection) {
    if connection.isScreen {
      screens[connection.id] = connection
      // A new screen is told at the next flush, changed or not.
      lastSent = nil
    } else if !connection.isPresenter {
      counted.insert(connection.id)
    }
  }

  mutating func left(_ id: UUID) {
    counted.remove(id)
    screens[id] = nil
  }

  /// Whether a flush would tell the screens anything.
  var isDue: Bool { !screens.isEmpty && lastSent != counted.count }

  /// The message for every screen, and the screens; `nil` when they know the count already.
  mutating func flush(codec: WireCodec, deflaters: SharedDeflaters?) -> (
    OutgoingMessage, [SocketConnection]
  )? {
    scheduled = false
    guard isDue else { return nil }
    lastSent = counted.count
    let bytes = codec.encode(.audience(Audience(count: counted.count)))
    return (OutgoingMessage(bytes, deflaters: deflaters), Array(screens.values))
  }
}
