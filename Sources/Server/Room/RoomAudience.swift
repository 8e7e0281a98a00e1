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
  /// Screens that joined since the last flush: they are told the count even if it is the
  /// one the others know.
  private var untold: Set<UUID> = []
  private var lastSent: Int?
  /// A flush is on its way.
  private var scheduled = false

  /// A socket is in the room (its snapshot is on its way or sent). `true` for a screen,
  /// which is told the count at once rather than within the interval.
  mutating func arrived(_ connection: SocketConnection) -> Bool {
    if connection.isScreen {
      screens[connection.id] = connection
      untold.insert(connection.id)
      return true
    }
    if !connection.isPresenter { counted.insert(connection.id) }
    return false
  }

  mutating func left(_ id: UUID) {
    counted.remove(id)
    screens[id] = nil
    untold.remove(id)
  }

  /// Asks for a flush (`ask`) within `interval` when one would tell any screen anything, once
  /// for every change meanwhile.
  mutating func schedule(_ ask: @escaping @Sendable () -> Void) {
    guard isDue, !scheduled else { return }
    scheduled = true
    Task {
      try? await Task.sleep(for: Self.interval)
      ask()
    }
  }

  /// Tells the screens that need it, one message for all of them.
  mutating func tell(codec: WireCodec, deflaters: SharedDeflaters?) {
    if let (message, screens) = flush(codec: codec, deflaters: deflaters) {
      Broadcast.send([message], to: screens)
    }
  }

  /// Whether a flush would tell any screen anything.
  private var isDue: Bool { !screens.isEmpty && (lastSent != counted.count || !untold.isEmpty) }

  /// The message, and the screens to get it: every screen when the count changed, else the
  /// new ones; `nil` when every screen knows the count already.
  private mutating func flush(codec: WireCodec, deflaters: SharedDeflaters?) -> (
    OutgoingMessage, [SocketConnection]
  )? {
    scheduled = false
    guard isDue else { return nil }
    let recipients =
      lastSent == counted.count ? untold.compactMap { screens[$0] } : Array(screens.values)
    lastSent = counted.count
    untold = []
    let bytes = codec.encode(.audience(Audience(count: counted.count)))
    return (OutgoingMessage(bytes, deflaters: deflaters), recipients)
  }
}
