import CommandLineValues
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// How busy this process keeps the cores it may run on: its CPU time over the time gone by,
/// per core, looked at no more often than `period` (a shorter look is mostly noise). It sees
/// only this process: a core it shares with another busy one does not count as full.
package final class ProcessLoad: Sendable {
  /// A share of the cores, and when it was measured (by the load's clock).
  package struct Reading: Sendable, Equatable {
    package var share: Double
    package var at: Duration

    package init(share: Double, at: Duration) {
      self.share = share
      self.at = at
    }
  }

  private struct Look {
    var cpu: Duration
    var at: Duration
    var reading: Reading?
  }

  /// The shortest time a share is measured over.
  package static let period = Duration.milliseconds(100)

  private let cores: Double
  private let cpuTime: @Sendable () -> Duration
  private let clock: any SessionClock
  private let last: Mutex<Look>

  /// `cores`: how many the process may use, a fraction under a CPU quota. `cpuTime`: the
  /// process's CPU time so far; `clock`: the time gone by. Both injected (a test's manual
  /// figures).
  package init(
    cores: Double, cpuTime: @escaping @Sendable () -> Duration = ProcessLoad.processTime,
    clock: any SessionClock = SystemClock()
  ) {
    self.cores = max(0.01, cores)
    self.cpuTime = cpuTime
    self.clock = clock
    last = Mutex(Look(cpu: cpuTime(), at: clock.now, reading: nil))
  }

  /// The process as the server runs it, on the cores it may use: `FanOutCost.availableCores`,
  /// or fewer under a cgroup's CPU quota (`cpu.max`), which may be a fraction of one.
  package static let thisProcess = ProcessLoad(
    cores: min(Double(FanOutCost.availableCores), cgroupQuota() ?? .infinity))

  /// The share of the cores the process kept busy over the last `period` or more (1: all
  /// of them), measured anew once a period has gone by since the last; `nil` before then.
  package func reading() -> Reading? {
    let (cpu, now) = (cpuTime(), clock.now)
    return last.withLock { look in
      let elapsed = now - look.at
      if elapsed >= Self.period {
        look.reading = Reading(share: (cpu - look.cpu) / (elapsed * cores), at: now)
        look.cpu = cpu
        look.at = now
      }
      return look.reading
    }
  }

  /// The cores a cgroup v2 quota allows (`/sys/fs/cgroup/cpu.max`: "QUOTA PERIOD", or "max"
  /// for none): `nil` without one.
  package static func cgroupQuota(
    _ text: String? = try? String(
      contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8)
  ) -> Double? {
    let fields = text?.split(whereSeparator: \.isWhitespace) ?? []
    guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]),
      quota > 0, period > 0
    else { return nil }
    return quota / period
  }

  /// The process's CPU time so far, every thread's.
  package static func processTime() -> Duration {
    #if canImport(Glibc)
      cpuTime(CLOCK_PROCESS_CPUTIME_ID)
    #else
      // No process clock here: never busy, the broadcasts never stretched.
      .zero
    #endif
  }

  #if canImport(Glibc)
    /// A CPU clock's time so far (the process's, or the calling thread's).
    static func cpuTime(_ clock: clockid_t) -> Duration {
      var time = timespec()
      clock_gettime(clock, &time)
      return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
  #endif
}
