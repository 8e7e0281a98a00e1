import Foundation
import Logging
import PostgresNIO
import QnAStore

/// The other instances' changes: one pooled connection `LISTEN`s on the channel for as long
/// as the store is open.
extension PostgresDriver {
  /// How often the listening connection proves it is alive.
  package static let heartbeatInterval: Duration = .seconds(15)

  /// Listens, connecting again after a failure; every (re)connection is a `resync`, as
  /// notices may have gone by meanwhile.
  package static func listen(
    pool: ConnectionPool, instance: UUID, health: StoreHealth, logger: Logger,
    into continuation: AsyncStream<RoomFeedEvent>.Continuation
  ) async {
    var delay = Duration.milliseconds(100)
    var connectedBefore = false
    while !Task.isCancelled {
      do {
        try await PooledCall(pool: pool, health: health).run { connection in
          try await connection.listen(on: channel) { notifications in
            health.update { reading in
              reading.listening = true
              if connectedBefore { reading.listenerReconnects += 1 }
            }
            connectedBefore = true
            continuation.yield(.resync)
            delay = .milliseconds(100)
            // A half-open connection (a host gone, a NAT that forgot it) never errors by
            // itself: a query now and then finds out, and closing it ends the loop below.
            let heartbeat = Task {
              while !Task.isCancelled {
                try? await Task.sleep(for: heartbeatInterval)
                guard !Task.isCancelled else { return }
                do {
                  _ = try await Deadline.run(
                    within: .seconds(5), onExpiry: { ConnectionPool.close(connection) }
                  ) {
                    try await connection.query("SELECT 1", logger: logger)
                  }
                } catch {
                  logger.warning("the listening connection did not answer: reconnecting")
                  try? await connection.close()
                  return
                }
              }
            }
            defer { heartbeat.cancel() }
            for try await notification in notifications {
              guard let notice = RoomNotice(payload: notification.payload) else {
                logger.warning("unreadable notice on \(channel): resyncing")
                continuation.yield(.resync)
                continue
              }
              health.notice(lag: notice.sentAt.map(lag))
              continuation.yield(.changed(notice, own: notice.origin == instance))
            }
          }
        }
      } catch {
        if Task.isCancelled { return }
        logger.warning("listening for other instances' changes: \(describe(error))")
      }
      health.update { $0.listening = false }
      try? await Task.sleep(for: delay)
      // At most a second apart: while the listener is down the rooms miss the others'
      // changes, and after a failover the new primary should be found at once (one
      // connection attempt a second per instance costs the database nothing).
      delay = min(delay * 2, .seconds(1))
    }
  }

  /// From a notice's sending to now, by the two instances' clocks (never below zero: clocks
  /// a little apart make a small lag look negative).
  static func lag(since sentAt: Int64) -> Duration {
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    return .milliseconds(max(0, now - sentAt))
  }
}
