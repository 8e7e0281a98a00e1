import Foundation
import Logging
import NIOCore
import QnAStore
import Synchronization

/// Every open attendee socket by connection id, of every session. On graceful shutdown
/// (`closeAll`, which the app runs as a service beside the HTTP server) it closes every
/// socket with 1001 before the server stops.
///
/// Why it must hold the server back until then: hummingbird-websocket closes every socket it
/// still has open with 1000 once the server's own shutdown begins (and a client never comes
/// back after 1000). So `closeAll` returns only when no socket, and no upgrade on its way to
/// becoming one (`arrive`), is left open with its close still to come.
package final class SocketHub: Sendable {
  private struct State {
    package var sockets: [UUID: SocketConnection] = [:]
    /// Upgrades let through whose handler has not joined `sockets` yet, by ticket.
    package var arriving: [UUID: any Channel] = [:]
    package var shuttingDown = false
    /// `closeAll` is done: the server's own shutdown (and its close 1000) may be under way.
    package var closed = false
    /// Shutdown has been asked for: `/readyz` answers 503 and new sockets are refused with
    /// 503 (a proxy tries the next instance), while the open ones go on until `closeAll`.
    package var draining = false
  }

  /// One lock for both: a socket is either added before shutdown begins (and closed by it)
  /// or refused, never added unseen while the closing runs.
  private let state = Mutex(State())
  private let logger: Logger

  package init(logger: Logger) {
    self.logger = logger
  }

  package var count: Int { state.withLock { $0.sockets.count } }

  /// Turns the instance away from new sockets, and unready, ahead of `closeAll`.
  package func beginDraining() { state.withLock { $0.draining = true } }

  package var isDraining: Bool { state.withLock { $0.draining || $0.shuttingDown } }
  package var all: [SocketConnection] { state.withLock { Array($0.sockets.values) } }

  package enum Admission {
    case added
    case full
    case shuttingDown
  }

  /// An upgrade about to be let through: a ticket that `add` takes back, or the channel's
  /// end; `nil` once `closeAll` is done, when the upgrade must not happen (drop the
  /// connection: its client retries, where a refusal's 4xx would stop it).
  package func arrive(on channel: any Channel) -> UUID? {
    let ticket = UUID()
    let admitted = state.withLock { state in
      guard !state.closed else { return false }
      state.arriving[ticket] = channel
      return true
    }
    guard admitted else { return nil }
    channel.closeFuture.whenComplete { [self] _ in leave(ticket) }
    return ticket
  }

  /// An upgrade that did not happen after all.
  package func leave(_ ticket: UUID) {
    state.withLock { _ = $0.arriving.removeValue(forKey: ticket) }
  }

  /// Registers a socket unless `limit` are open or shutdown has begun: checked and counted
  /// in one step, so a burst of connections cannot slip past the limit together. A refused
  /// socket keeps its `arrival` ticket until its channel ends: shutdown waits for its close.
  package func add(_ connection: SocketConnection, limit: Int, arrival: UUID? = nil)
    -> Admission
  {
    state.withLock { state in
      if state.shuttingDown { return .shuttingDown }
      if state.sockets.count >= limit { return .full }
      state.sockets[connection.id] = connection
      if let arrival { _ = state.arriving.removeValue(forKey: arrival) }
      return .added
    }
  }

  package func remove(_ id: UUID) {
    state.withLock { _ = $0.sockets.removeValue(forKey: id) }
  }

  package func connection(_ id: UUID) -> SocketConnection? {
    state.withLock { $0.sockets[id] }
  }

  /// The sockets `id` names, or all of them without one.
  package func select(_ id: UUID?) -> [SocketConnection] {
    if let id { return connection(id).map { [$0] } ?? [] }
    return all
  }

  /// How long shutdown waits for clients to answer their 1001 before dropping them, so that
  /// the process exits within a second of `--shutdown-delay`.
  package static let answerWait = Duration.milliseconds(500)

  /// Refuses new sockets from now on, closes the open ones with 1001 and waits for them a
  /// little (`answerWait`), then drops those whose peer did not answer, and any upgrade
  /// still on its way (its own handler closes it with 1001 meanwhile, in `add`'s refusal).
  package func closeAll() async {
    let open = state.withLock { state in
      state.shuttingDown = true
      state.draining = true
      return Array(state.sockets.values)
    }
    logger.info("shutting down: closing \(open.count) sockets with 1001")
    // Ahead of anything queued for them: a slow queue must not hold the 1001 past the wait.
    for connection in open {
      connection.close(
        code: .goingAway, reason: "server shutting down", timeout: Self.answerWait,
        queued: false)
    }
    let deadline = ContinuousClock.now + Self.answerWait
    while ContinuousClock.now < deadline,
      state.withLock({ !$0.sockets.isEmpty || !$0.arriving.isEmpty })
    {
      do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
    }
    // From here on the library may close what is open with 1000: nothing may be. Closed in
    // the same step as `arrive` is shut, so no upgrade slips in between; a close handed to
    // the event loop now goes before any frame the library writes later.
    let left = state.withLock { state in
      state.closed = true
      return state.sockets.values.map(\.channel) + Array(state.arriving.values)
    }
    for channel in left { channel.close(mode: .all, promise: nil) }
  }
}
