import Synchronization

/// How long the room's last broadcasts took to write to their sockets, on the event loops
/// (one write per socket: the cost that grows with the room). The room's worker spaces its
/// broadcasts by it, so that writing them takes at most half of a core however large the
/// room: a storm's votes then wait a little longer for a broadcast, and the core is left for
/// the votes themselves.
package final class FanOutCost: Sendable {
  private let recent = Mutex(Duration.zero)

  package init() {}

  /// One event loop's writes of one broadcast took `duration`. The figure falls by a quarter
  /// at each write that took less, so one slow broadcast does not space the room for long.
  package func record(_ duration: Duration) {
    recent.withLock { $0 = max(duration, $0 * 3 / 4) }
  }

  /// The recent cost of a broadcast's writes.
  package var value: Duration { recent.withLock { $0 } }
}
