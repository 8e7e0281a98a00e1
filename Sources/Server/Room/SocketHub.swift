import Foundation
import Logging
import NIOCore
import QnAStore
import Synchronization

/// Every open attendee socket by connection id, of every session. On graceful shutdown
/// (`closeAll`, which the app runs as a service beside the HTTP server) it closes every
/// socket with 1001 before the server stops.
package final class SocketHub: Sendable {
  private struct State {
    package var sockets: [UUID: SocketConnection] = [:]
    package var shuttingDown = false
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

  /// Registers a socket unless `limit` are open or shutdown has begun: checked and counted
  /// in one step, so a burst of connections cannot slip past the limit together.
  package func add(_ connection: SocketConnection, limit: Int) -> Admission {
    state.withLock { state in
      if state.shuttingDown { return .shuttingDown }
      if state.sockets.count >= limit { return .full }
      state.sockets[connection.id] = connection
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

  /// Refuses new sockets from now on, closes the open ones with 1001 and waits for them a
  /// little (4 s at most), then drops those whose peer did not answer.
  package func closeAll() async {
    let open = state.withLock { state in
      state.shuttingDown = true
      state.draining = true
      return Array(state.sockets.values)
    }
    logger.info("shutting down: closing \(open.count) sockets with 1001")
    for connection in open {
      connection.close(code: .goingAway, reason: "server shutting down", timeout: .seconds(3))
    }
    // Bounded: sockets whose peer does not answer the close are dropped with their channel.
    for _ in 0..<40 where count > 0 {
      try? await Task.sleep(for: .milliseconds(100))
    }
    for connection in all { connection.drop() }
  }
}
