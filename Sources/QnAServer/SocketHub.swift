import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// Every open attendee socket by connection id. As a service it runs beside the HTTP server
/// and, on graceful shutdown, closes every socket with 1001 before the server stops.
final class SocketHub: Service, Sendable {
  private let sockets = Mutex<[UUID: SocketConnection]>([:])
  private let shuttingDown = Mutex(false)
  private let logger: Logger

  init(logger: Logger) {
    self.logger = logger
  }

  var count: Int { sockets.withLock { $0.count } }
  var all: [SocketConnection] { sockets.withLock { Array($0.values) } }

  /// Registers a socket; false once shutdown has begun.
  func add(_ connection: SocketConnection) -> Bool {
    guard !shuttingDown.withLock({ $0 }) else { return false }
    sockets.withLock { $0[connection.id] = connection }
    return true
  }

  func remove(_ id: UUID) {
    sockets.withLock { _ = $0.removeValue(forKey: id) }
  }

  func connection(_ id: UUID) -> SocketConnection? {
    sockets.withLock { $0[id] }
  }

  /// The sockets `id` names, or all of them without one.
  func select(_ id: UUID?) -> [SocketConnection] {
    if let id { return connection(id).map { [$0] } ?? [] }
    return all
  }

  func run() async throws {
    try? await gracefulShutdown()
    shuttingDown.withLock { $0 = true }
    let open = all
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
