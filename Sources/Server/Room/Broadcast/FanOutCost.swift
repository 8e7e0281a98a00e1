import Foundation
import NIOCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What writing the room's recent broadcasts to their sockets cost, in CPU time on the event
/// loops (one write per socket: the cost that grows with the room), per core the process may
/// run on: the loops' times added up, divided among those cores. The room's worker spaces its
/// broadcasts by it (`RoomWorker.wantedSpacing`: ten times it, up to a quarter of a window
/// more while the cores have room): a storm's votes then wait a little longer for a
/// broadcast, and the cores are left for the votes themselves. (Two loops on one core take
/// their turns on it: their times add up; on two cores they write side by side.)
///
/// When the process keeps its cores full all the same (10,000 sockets voting on one core),
/// the votes queue behind the broadcasts and every answer comes later and later: what the
/// writes cost then counts for more (`stretch`), a quarter more at each new reading while the
/// cores stay full, and less again once they are not, so that the broadcasts of the rooms
/// that cost the most give way until the votes keep up.
package final class FanOutCost: Sendable {
  private struct Costs {
    /// The recent cost per core: halved at each broadcast, but never below the last one's
    /// while the next is written (the spacing read meanwhile would flip to the window).
    var recent = Duration.zero
    /// The broadcast under way, its loops' times so far.
    var current = Duration.zero
    /// How many times the cost counts while the cores are full.
    var stretch = 1.0
    /// When the load reading the stretch last followed was measured.
    var followed: Duration?
  }

  private let costs = Mutex(Costs())
  /// The cores the loops share.
  package let cores: Int
  /// How busy the process keeps its cores (`nil`: the spacing is never stretched).
  private let load: ProcessLoad?
  /// Told each loop's time for each broadcast (`/metrics`).
  private let written: @Sendable (Duration) -> Void

  /// At least this share of the cores busy: full, the stretch grows.
  static let full = 0.9
  /// Less than this: no longer full, the stretch eases back.
  static let eased = 0.75
  /// The most the cost is stretched (the worker's second caps the spacing too).
  static let mostStretch = 10.0

  package init(
    cores: Int = FanOutCost.availableCores, load: ProcessLoad? = .thisProcess,
    written: @escaping @Sendable (Duration) -> Void = { _ in }
  ) {
    self.cores = max(1, cores)
    self.load = load
    self.written = written
  }

  /// A broadcast begins: the figure is halved, so that one costly broadcast (a storm's
  /// first, 50 ms at 2,000 sockets on one core against 15 for the next) does not space the
  /// room for long; the stretch follows each new reading of the load once: a
  /// quarter more for a full one, a fifth less per period gone by since the last it followed
  /// for an idle one (a room quiet for a second is back to none).
  package func beginBroadcast() {
    let reading = load?.reading()
    costs.withLock { costs in
      costs.recent = max(costs.recent / 2, costs.current / cores)
      costs.current = .zero
      guard let reading, reading.at != costs.followed else { return }
      let periods = costs.followed.map { (reading.at - $0) / ProcessLoad.period } ?? 1
      costs.followed = reading.at
      if reading.share >= Self.full {
        costs.stretch = min(costs.stretch * 1.25, Self.mostStretch)
      } else if reading.share < Self.eased {
        costs.stretch = max(1, costs.stretch * pow(0.8, max(1, periods)))
      }
    }
  }

  /// How many times the room's cost counts in its spacing while the cores are full: 1 when
  /// they are not.
  package var stretch: Double { costs.withLock(\.stretch) }

  /// One event loop's writes of a broadcast took `duration` of its CPU.
  package func record(_ duration: Duration) {
    let duration = max(.zero, duration)
    written(duration)
    costs.withLock { costs in
      costs.current += duration
      costs.recent = max(costs.recent, costs.current / cores)
    }
  }

  /// The recent cost of a broadcast's writes, per core.
  package var value: Duration { costs.withLock(\.recent) }

  /// The cores this process may run on: its affinity (`taskset`, a container's cpuset), as
  /// Linux lists them in /proc/self/status, and no more than NIO counts (which also reads a
  /// container's CPU quota); NIO's count where the list cannot be read.
  package static let availableCores: Int = {
    let counted = System.coreCount
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: {
        $0.hasPrefix("Cpus_allowed_list:")
      }),
      let allowed = cores(inList: line.dropFirst("Cpus_allowed_list:".count))
    else { return counted }
    return min(allowed, counted)
  }()

  /// How many cores a list such as `0-3,8,10-11` names; `nil` for one it cannot read.
  package static func cores(inList list: Substring) -> Int? {
    var count = 0
    for part in list.split(separator: ",") {
      let bounds = part.split(separator: "-").map {
        Int($0.trimmingCharacters(in: .whitespaces))
      }
      switch bounds.count {
      case 1:
        guard bounds[0] != nil else { return nil }
        count += 1
      case 2:
        guard let low = bounds[0], let high = bounds[1], low <= high else { return nil }
        count += high - low + 1
      default: return nil
      }
    }
    return count > 0 ? count : nil
  }

  /// This thread's CPU time so far: what its work cost, however often the scheduler set it
  /// aside for another thread meanwhile (a wall clock would count that as the writes' cost).
  package static func threadTime() -> Duration {
    #if canImport(Glibc)
      return ProcessLoad.cpuTime(CLOCK_THREAD_CPUTIME_ID)
    #else
      // No thread clock here: no cost measured, the window alone spaces broadcasts.
      return .zero
    #endif
  }
}
