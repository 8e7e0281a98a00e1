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
  private struct Look {
    var cpu: Duration
    var at: Duration
    var share: Double?
  }

  /// The shortest time a share is measured over.
  package static let period = Duration.milliseconds(100)

  private let cores: Int
  private let cpuTime: @Sendable () -> Duration
  private let clock: any SessionClock
  private let last: Mutex<Look>

  /// `cpuTime`: the process's CPU time so far; `clock`: the time gone by. Both injected (a
  /// test's manual figures).
  package init(
    cores: Int, cpuTime: @escaping @Sendable () -> Duration = ProcessLoad.processTime,
    clock: any SessionClock = SystemClock()
  ) {
    self.cores = max(1, cores)
    self.cpuTime = cpuTime
    self.clock = clock
    last = Mutex(Look(cpu: cpuTime(), at: clock.now, share: nil))
  }

  /// The process as the server runs it, on the cores it may use (`FanOutCost.availableCores`).
  package static let thisProcess = ProcessLoad(cores: FanOutCost.availableCores)

  /// The share of the cores the process kept busy over the last `period` or more: 1 is all
  /// of them. `nil` before a whole period has gone by.
  package func share() -> Double? {
    let (cpu, now) = (cpuTime(), clock.now)
    return last.withLock { look in
      let elapsed = now - look.at
      if elapsed >= Self.period {
        look.share = (cpu - look.cpu) / (elapsed * cores)
        look.cpu = cpu
        look.at = now
      }
      return look.share
    }
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
