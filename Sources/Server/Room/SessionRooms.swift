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
  /// Each session's room here, with the session as its sockets were last told of it.
  private let rooms = Mutex<[Int64: Entry]>([:])
  private let logger: Logger

  private struct Entry {
    var told: SessionRecord
    let room: SessionRoom
    /// A re-read of the session is under way; `again`: another was asked for meanwhile.
    var refreshing = false
    var again = false
  }

  package init(main: SessionRoom, logger: Logger) {
    self.main = main
    self.logger = logger
  }

  /// The session with this code (any case) and its room; `nil` if there is none.
  package func resolve(_ code: String) async throws(StoreError) -> (
    session: SessionRecord, room: SessionRoom
  )? {
    guard let record = try await main.store.directory.session(code: code), let id = record.id else {
      if let canonical = JoinCode.canonical(code) { retire(code: canonical) }
      return nil
    }
    let (room, stale) = rooms.withLock { rooms -> (SessionRoom, Bool) in
      if let known = rooms[id] {
        return (
          known.room,
          known.told.open != record.open || known.told.title != record.title
            || known.told.token != record.token
        )
      }
      let room = main.forSession(id)
      rooms[id] = Entry(told: record, room: room)
      return (room, false)
    }
    // Changed behind this instance's back (`qna-server session close` or `rotate-token`
    // beside a server on SQLite, which has no notices): its sockets are told now, in order.
    if stale { refresh(id) }
    return (record, room)
  }

  /// Reads session `id` again and tells its sockets here if it was closed, reopened or
  /// deleted since they were last told; closes its presenters' sockets if its token changed.
  /// Re-reads of one session run one after another (one asked for meanwhile runs after), so
  /// a later state is never overtaken by an earlier one.
  package func refresh(_ id: Int64) {
    let code = rooms.withLock { rooms -> String? in
      guard let entry = rooms[id] else { return nil }
      if entry.refreshing {
        rooms[id]?.again = true
        return nil
      }
      rooms[id]?.refreshing = true
      return entry.told.code
    }
    guard let code else { return }
    Task {
      while true {
        let record: SessionRecord?
        do {
          record = try await main.store.directory.session(code: code)
        } catch {
          // The next notice or resync asks again.
          rooms.withLock { $0[id]?.refreshing = false }
          return
        }
        guard let record else {
          retire(code: code)
          return
        }
        let (news, rotated, again) = rooms.withLock { rooms -> (SessionRecord?, Bool, Bool) in
          guard let entry = rooms[id] else { return (nil, false, false) }
          let changed = entry.told.open != record.open || entry.told.title != record.title
          rooms[id]?.told = record
          rooms[id]?.again = false
          if !entry.again { rooms[id]?.refreshing = false }
          return (changed ? record : nil, entry.told.token != record.token, entry.again)
        }
        if let news { tell(news, deleted: false) }
        if rotated { closePresenters(of: record) }
        if !again { return }
      }
    }
  }

  /// A change committed on the database (by another instance, or by this one): the room it
  /// is in re-reads its log, if any of its sockets are here. Another instance's answer or
  /// decision goes to its asker, if connected here; a session's change is looked up again
  /// (a deleted one is retired here too).
  package func apply(_ event: RoomFeedEvent) {
    switch event {
    case .resync:
      let known = rooms.withLock { $0 }
      for room in [main] + known.values.map(\.room) {
        room.fanOut.changed(urgent: true)
        // A filter changed while notices were missed.
        room.wordFilters.invalidate()
      }
      // A session closed or deleted while notices were missed.
      for id in known.keys { refresh(id) }
    case .changed(let notice, let own):
      let known = rooms.withLock { $0[notice.session] }
      if notice.kind == .session {
        // Closed, reopened or deleted: read again, and its sockets are told.
        refresh(notice.session)
        return
      }
      let room = notice.session == SessionRecord.defaultID ? main : known?.room
      guard let room else { return }
      if notice.kind == .filter {
        room.wordFilters.invalidate()
        return
      }
      room.fanOut.changed(urgent: notice.kind != .votes && notice.kind != .added)
      if !own, let question = notice.question, [.answered, .state, .edited].contains(notice.kind) {
        // A read of its own: notices keep coming meanwhile.
        Task { await AskerNotices(room: room).tellAsker(question, of: notice.kind) }
      }
    }
  }

  /// A session's token changed: its presenters' sockets here close (1008), as each may have
  /// been opened with the old token or a login that ended with it. One whose credential
  /// still holds (the admin token) may reconnect.
  private func closePresenters(of session: SessionRecord) {
    let sockets = main.sockets.all.filter { $0.session == session.id && $0.isPresenter }
    logger.notice(
      "session \(session.code): new presenter token: closing \(sockets.count) presenter sockets")
    for socket in sockets {
      socket.close(code: .policyViolation, reason: "the session's presenter token changed")
    }
  }

  /// The room of a deleted session goes, and its sockets are closed: their clients hear, on
  /// reconnecting, that the session does not exist.
  package func retire(code: String) {
    let gone = rooms.withLock { rooms -> (SessionRecord, SessionRoom)? in
      guard let (id, entry) = rooms.first(where: { $0.value.told.code == code }) else {
        return nil
      }
      rooms[id] = nil
      return (entry.told, entry.room)
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
