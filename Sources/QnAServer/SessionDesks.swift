import Foundation
import Logging
import NIOWebSocket
import QnA
import Synchronization

/// The sessions' desks, each with its own store view and room: the default session's made at
/// start, the others on first use. Every lookup reads the session's row, so a session created,
/// closed or deleted by `qna-server session` against this database counts at once, without a
/// restart; a desk whose session is gone is retired, its sockets closed.
final class SessionDesks: Sendable {
  let main: QuestionDesk
  private let make: @Sendable (QuestionStore) -> QuestionDesk
  private let desks = Mutex<[Int64: (code: String, desk: QuestionDesk)]>([:])
  private let logger: Logger

  init(
    main: QuestionDesk, logger: Logger, make: @escaping @Sendable (QuestionStore) -> QuestionDesk
  ) {
    self.main = main
    self.make = make
    self.logger = logger
  }

  /// The session with this code (any case) and its desk; `nil` if there is none.
  func resolve(_ code: String) async throws(StoreError) -> (
    session: SessionRecord, desk: QuestionDesk
  )? {
    guard let record = try await main.store.session(code: code), let id = record.id else {
      if let canonical = JoinCode.canonical(code) { retire(code: canonical) }
      return nil
    }
    let desk = desks.withLock { desks in
      if let known = desks[id] { return known.desk }
      let desk = make(main.store.session(id))
      desks[id] = (record.code, desk)
      return desk
    }
    return (record, desk)
  }

  /// A change committed on the database (by another instance, or by this one): the room it
  /// is in re-reads its log, if any of its sockets are here. Another instance's answer or
  /// decision goes to its asker, if connected here; a session's change is looked up again
  /// (a deleted one is retired here too).
  func apply(_ event: RoomFeedEvent) {
    switch event {
    case .resync:
      let all = [main] + desks.withLock { $0.values.map(\.desk) }
      for desk in all { desk.room.changed(urgent: true) }
    case .changed(let notice, let own):
      let known = desks.withLock { $0[notice.session] }
      if notice.kind == .session {
        if let known { Task { _ = try? await resolve(known.code) } }
        return
      }
      let desk = notice.session == SessionRecord.defaultID ? main : known?.desk
      guard let desk else { return }
      desk.room.changed(urgent: notice.kind != .votes && notice.kind != .added)
      if !own, let question = notice.question, notice.kind == .answered || notice.kind == .state {
        // A read of its own: notices keep coming meanwhile.
        Task { await desk.tellAsker(question, of: notice.kind) }
      }
    }
  }

  /// The desk of a deleted session goes, and its sockets are closed: their clients hear, on
  /// reconnecting, that the session does not exist.
  func retire(code: String) {
    let gone = desks.withLock { desks -> (Int64, QuestionDesk)? in
      guard let (id, entry) = desks.first(where: { $0.value.code == code }) else { return nil }
      desks[id] = nil
      return (id, entry.desk)
    }
    guard let (id, desk) = gone else { return }
    desk.room.stop()
    let sockets = main.hub.all.filter { $0.session == id }
    logger.info("session \(code) is gone: closing its \(sockets.count) sockets")
    for socket in sockets {
      socket.close(code: .goingAway, reason: "the session was deleted")
    }
  }
}
