import Synchronization

/// How a shared database's connections and notices are doing, for `/metrics` and `/readyz`.
/// The driver counts; the server reads a `Reading` at each scrape.
package final class StoreHealth: Sendable {
  package struct Reading: Sendable, Equatable {
    /// Connections lent out now: store calls in a transaction, and the listening one.
    package var inUse = 0
    /// Calls waiting for a connection.
    package var waiting = 0
    /// The most the pool opens.
    package var poolSize = 0
    /// Calls that gave up at their time limit (their connection closed, so that it comes back).
    package var deadlineHits = 0
    /// Of those, the ones whose task has not ended yet (its slot in the pool is free again):
    /// a driver's wait that no closed connection ends.
    package var abandonedRunning = 0
    /// Other instances' notices, and this instance's own, as they arrived.
    package var notices = 0
    /// Times the listening connection was made again after it was lost.
    package var listenerReconnects = 0
    /// Whether the listening connection is up: without it, changes made elsewhere are late.
    package var listening = false

    package init(poolSize: Int = 0) { self.poolSize = poolSize }
  }

  private let state: Mutex<Reading>
  /// The pool's connections lent and calls waiting, read when asked.
  private let usage: @Sendable () -> (lent: Int, waiting: Int)
  /// Each notice's lag, from its sender's clock at the `NOTIFY` to this instance's on arrival.
  private let lagObserver: @Sendable (Duration) -> Void

  package init(
    poolSize: Int, usage: @escaping @Sendable () -> (lent: Int, waiting: Int),
    noticeLag: @escaping @Sendable (Duration) -> Void = { _ in }
  ) {
    state = Mutex(Reading(poolSize: poolSize))
    self.usage = usage
    lagObserver = noticeLag
  }

  package var reading: Reading {
    var reading = state.withLock { $0 }
    (reading.inUse, reading.waiting) = usage()
    return reading
  }

  package func update(_ change: (inout Reading) -> Void) { state.withLock { change(&$0) } }

  package func notice(lag: Duration?) {
    state.withLock { $0.notices += 1 }
    if let lag { lagObserver(lag) }
  }
}
