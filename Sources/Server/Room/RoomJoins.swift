import Foundation
import QnA
import QnAStore

/// Extension `room`: an attendee joins (its name recorded), then the fan-out welcomes it.
package struct RoomJoins: Sendable {
  package let room: SessionRoom

  /// Names longer than this are cut: they are shown beside questions.
  package static let maxNameLength = 60

  package init(room: SessionRoom) { self.room = room }

  package func join(_ join: Join, from connection: SocketConnection) async {
    guard join.id == connection.id else {
      room.logger.warning("ignored join from \(connection.id) naming \(join.id)")
      return
    }
    connection.attendee = join.attendee
    let name = join.name.map { String($0.prefix(Self.maxNameLength)) }.flatMap {
      $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0
    }
    do {
      try await room.store.join(attendee: join.attendee, name: name, at: room.environment.now())
    } catch {
      room.logger.error("could not record attendee: \(error)")
    }
    room.fanOut.join(connection, join)
  }
}
