import PostgresNIO
import QnAStore
import Synchronization

/// One store call's hold on a pooled connection. When the call is abandoned at its time
/// limit, the connection it holds (or gets later) is closed and its slot in the pool freed
/// at once, whether or not the task that held it ever ends.
package final class PooledCall: Sendable {
  private let pool: ConnectionPool
  private let health: StoreHealth?
  private let state = Mutex(Hold())

  private struct Hold {
    var connection: PostgresConnection?
    var abandoned = false
    var givenBack = false
    var running = true
    /// Counted in `abandonedRunning` (once, whichever way the call was abandoned).
    var counted = false
    var lost: (@Sendable (any Error) -> Void)?
  }

  /// The connection closed under a running call.
  package struct ConnectionLost: Error, CustomStringConvertible {
    package var description: String { "the connection to PostgreSQL was lost" }
  }

  package init(pool: ConnectionPool, health: StoreHealth?) {
    self.pool = pool
    self.health = health
  }

  package func run<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
    defer { finished() }
    let connection = try await pool.lease()
    let abandoned = state.withLock { hold in
      hold.connection = connection
      return hold.abandoned
    }
    if abandoned {
      giveBack(reusable: false)
      throw CancellationError()
    }
    pool.watch(connection) { [weak self] in self?.connectionClosed() }
    do {
      let value = try await body(connection)
      giveBack(reusable: true)
      return value
    } catch {
      giveBack(reusable: Self.reusable(after: error))
      throw error
    }
  }

  /// What to call, with the error, when the connection closes under the call.
  package func whenLost(_ handler: @escaping @Sendable (any Error) -> Void) {
    state.withLock { $0.lost = handler }
  }

  /// The call gave up at its limit: its connection is closed and its slot freed now.
  package func abandon() {
    health?.update { $0.deadlineHits += 1 }
    release()
  }

  private func connectionClosed() {
    let lost = state.withLock { hold -> (@Sendable (any Error) -> Void)? in
      hold.running && !hold.givenBack ? hold.lost : nil
    }
    guard let lost else { return }
    lost(ConnectionLost())
    release()
  }

  /// Abandons the call: its slot comes back now, however long its task runs on.
  private func release() {
    let count = state.withLock { hold in
      hold.abandoned = true
      defer { if hold.running { hold.counted = true } }
      return hold.running && !hold.counted
    }
    if count { health?.update { $0.abandonedRunning += 1 } }
    giveBack(reusable: false)
  }

  private func finished() {
    let counted = state.withLock { hold in
      defer { hold.running = false }
      return hold.counted && hold.running
    }
    if counted { health?.update { $0.abandonedRunning -= 1 } }
  }

  private func giveBack(reusable: Bool) {
    let connection = state.withLock { hold -> PostgresConnection? in
      guard !hold.givenBack, let connection = hold.connection else { return nil }
      hold.givenBack = true
      return connection
    }
    if let connection {
      pool.unwatch(connection)
      pool.giveBack(connection, reusable: reusable)
    }
  }

  /// Whether a connection is fit for the next call after `error`: yes when PostgreSQL itself
  /// answered with it (the transaction was rolled back) or the store refused; not after a
  /// broken link, a cancellation, or anything unknown, nor from a server that takes no writes
  /// (a standby, after a failover): the next connection looks for the primary again.
  static func reusable(after error: any Error) -> Bool {
    if let error = error as? PSQLError {
      guard let info = error.serverInfo else { return false }
      return info[.sqlState] != readOnlyTransaction
    }
    return error is StoreError
  }

  /// SQLSTATE `read_only_sql_transaction`.
  static let readOnlyTransaction = "25006"
}
