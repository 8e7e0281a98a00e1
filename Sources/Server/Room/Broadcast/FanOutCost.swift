import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What writing the room's recent broadcasts to their sockets cost, in CPU time on the event
/// loops (one write per socket: the cost that grows with the room). The room's worker spaces
/// its broadcasts by it, so that writing them takes at most half of a core however large
/// the room: a storm's votes then wait a little longer for a broadcast, and the core is left
/// for the votes themselves.
package final class FanOutCost: Sendable {
  private let recent = Mutex(Duration.zero)

  package init() {}

  /// A broadcast begins: the figure falls by a quarter, so that one costly broadcast does
  /// not space the room for long.
  package func beginBroadcast() {
    recent.withLock { $0 = $0 * 3 / 4 }
  }

  /// One event loop's writes of a broadcast took `duration` of its CPU: the broadcast's cost
  /// is its costliest loop's.
  package func record(_ duration: Duration) {
    recent.withLock { $0 = max($0, duration) }
  }

  /// The recent cost of a broadcast's writes.
  package var value: Duration { recent.withLock { $0 } }

  /// This thread's CPU time so far: what its work cost, however often the scheduler set it
  /// aside for another thread meanwhile (a wall clock would count that as the writes' cost).
  package static func threadTime() -> Duration {
    #if canImport(Glibc)
      var time = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    #else
      // No thread clock here: no cost measured, the window alone spaces broadcasts.
      return .zero
    #endif
  }
}
