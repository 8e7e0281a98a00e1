import Foundation
import Logging
import NIOWebSocket
import QnA
import QnAStore
import Synchronization

/// The sessions' rooms on this instance, each with its own store view and fan-out: the
/// default session's made at start, the others on first use. Every lookup reads the session's row, so a session created,
/// closed or deleted by `qna-server session` against this database counts at once, without a
/// restart; a room whose session is gone is retired, its sockets closed.
package final class SessionRooms: Sendable {
  package let main: SessionRoom
  /// Each session's room here, with the session as its sockets last heard of it.
  private let rooms = Mutex<[Int64: (session: SessionRecord, room: SessionRoom)]>([:])
  private let logger: Logger

  package init(main: SessionRoom, logger: Logger) {
    self.main = main
    self.logger = logger
  }

  /// The session with this code (any case) and its room; `nil` if there is none.
  package func resolve(_ code: String) async throws(StoreError) -> (
    session: SessionRecord, room: SessionRoom
  )? {
    guard let record = try await main.store.session(code: code), let id = record.id else {
      if let canonical = JoinCode.canonical(code) { retire(code: canonical) }
      return nil
    }
    let (room, news) = rooms.withLock { rooms -> (SessionRoom, SessionRecord?) in
      if let known = rooms[id] {
        rooms[id]?.session = record
        let changed = known.session.open != record.open || known.session.title != record.title
        return (known.room, changed ? record : nil)
      }
      let room = main.forSession(id)
      rooms[id] = (record, room)
      return (room, nil)
    }
    if let news { tell(news, deleted: false) }
    return (record, room)
  }

  /// A change committed on the database (by another instance, or by this one): the room it
  /// is in re-reads its log, if any of its sockets are here. Another instance's answer or
  /// decision goes to its asker, if connected here; a session's change is looked up again
  /// (a deleted one is retired here too).
  package func apply(_ event: RoomFeedEvent) {
    switch event {
    case .resync:
      let all = [main] + rooms.withLock { $0.values.map(\.room) }
      for room in all { room.fanOut.changed(urgent: true) }
    case .changed(let notice, let own):
      let known = rooms.withLock { $0[notice.session] }
      if notice.kind == .session {
        // Closed, reopened or deleted: read again, and its sockets are told.
        if let known { Task { _ = try? await resolve(known.session.code) } }
        return
      }
      let room = notice.session == SessionRecord.defaultID ? main : known?.room
      guard let room else { return }
      room.fanOut.changed(urgent: notice.kind != .votes && notice.kind != .added)
      if !own, let question = notice.question, notice.kind == .answered || notice.kind == .state {
        // A read of its own: notices keep coming meanwhile.
        Task { await AskerNotices(room: room).tellAsker(question, of: notice.kind) }
      }
    }
  }

  /// The room of a deleted session goes, and its sockets are closed: their clients hear, on
  /// reconnecting, that the session does not exist.
  package func retire(code: String) {
    let gone = rooms.withLock { rooms -> (SessionRecord, SessionRoom)? in
      guard let (id, entry) = rooms.first(where: { $0.value.session.code == code }) else {
        return nil
      }
      rooms[id] = nil
      return (entry.session, entry.room)
    }
    guard let (session, room) = gone else { return }
    room.fanOut.stop()
    tell(session, deleted: true)
    let sockets = main.sockets.all.filter { $0.session == session.id }
    logger.info("session \(code) is gone: closing its \(sockets.count) sockets")
    for socket in sockets {
      socket.close(code: .goingAway, reason: "the session was deleted")
    }
  }
}
