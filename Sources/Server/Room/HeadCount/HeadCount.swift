import Foundation
import Logging
import QnAStore
import Synchronization

/// The projector's head count (extension `audience`): the distinct attendees in a session's
/// room on every instance of its database, the same on every screen. One per instance, for
/// all its sessions.
///
/// Joins and leaves only change memory (`AttendeePresence`). Once a tick this instance writes
/// what changed (`PresenceWrites`) and reads the count of every session a screen here
/// watches, in one transaction, and hands each count to that session's fan-out; a tick with
/// nothing to write or read costs nothing. So a thousand sockets opening cost no more writes
/// than one, and the screens learn of the other instances' attendees within a tick or two.
package final class HeadCount: Sendable {
  /// How often the instance writes what changed and reads the counts: a screen is told at
  /// most once a tick.
  package static let interval: Duration = .seconds(1)
  /// How often every row is written again, and how long a row counts unless written again:
  /// a killed instance's attendees drop out of the count after `lifetime`.
  package static let renewal: Duration = .seconds(30)
  package static let lifetime: Duration = .seconds(90)

  /// This instance, as its rows name it.
  package let instance: UUID
  private let store: QuestionStore
  private let now: @Sendable () -> Date
  private let logger: Logger
  private let state: Mutex<State>

  private struct State {
    var presence = AttendeePresence()
    var writes: PresenceWrites
    /// The fan-out of each session a screen here watches, told the session's count.
    var fanOuts: [Int64: RoomFanOut] = [:]
  }

  package init(
    store: QuestionStore, instance: UUID = UUID(), now: @escaping @Sendable () -> Date,
    logger: Logger
  ) {
    self.store = store
    self.instance = instance
    self.now = now
    self.logger = logger
    let writes = PresenceWrites(
      instance: instance, renewal: Self.renewal, lifetime: Self.lifetime)
    state = Mutex(State(writes: writes))
  }

  /// A socket joined `session` (every join, the first and the later ones); `attendee`: the
  /// identity its join was issued or proved, `nil` while it has none.
  package func joined(
    _ connection: SocketConnection, session: Int64, attendee: UUID?, fanOut: RoomFanOut
  ) {
    let role: AttendeePresence.Role =
      connection.isScreen ? .screen : connection.isPresenter ? .presenter : .attendee
    state.withLock { state in
      state.presence.joined(
        socket: connection.id, session: session, role: role, attendee: attendee)
      if role == .screen { state.fanOuts[session] = fanOut }
    }
  }

  package func left(_ socket: UUID) {
    state.withLock { $0.presence.left(socket: socket) }
  }

  /// Ticks until cancelled, `interval` apart (from the end of one to the start of the next:
  /// a slow database makes them rarer, never piled up).
  package func run() async {
    while !Task.isCancelled {
      await tick()
      try? await Task.sleep(for: Self.interval)
    }
  }

  /// Writes what changed since the last tick and tells each watched session's screens here
  /// its count.
  package func tick() async {
    let time = now().timeIntervalSince1970
    let (changes, watched) = state.withLock { state -> (PresenceChanges, [Int64: RoomFanOut]) in
      let watched = state.presence.watched
      state.fanOuts = state.fanOuts.filter { watched.contains($0.key) }
      var changes = state.writes.next(present: state.presence.present, now: time)
      changes.seen = state.presence.takeSeen()
      return (changes, state.fanOuts)
    }
    guard !changes.isEmpty || !watched.isEmpty else { return }
    do {
      let counts = try await store.presence(changes, counting: Array(watched.keys))
      state.withLock { $0.writes.succeeded(changes) }
      for (session, fanOut) in watched { fanOut.headCount(counts[session] ?? 0) }
    } catch {
      let first = state.withLock { state -> Bool in
        let wasFailing = state.writes.isFailing
        state.writes.failed(changes)
        state.presence.putBack(seen: changes.seen)
        return !wasFailing
      }
      // Once per spell: the next tick tries again, every row.
      if first { logger.warning("head count: could not write or read: \(error)") }
    }
  }

  /// Deletes this instance's rows: it is shutting down, and its attendees are on their way
  /// to another instance, which counts them when they arrive.
  package func end() async {
    do {
      try await store.endPresence(instance: instance)
    } catch {
      logger.warning("head count: this instance's rows stay until they lapse: \(error)")
    }
  }
}
