import CommandLineValues
import QnA
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Pays a new identity's price (extension `identityWork`) on threads of its own, one per
/// core, so that the hashing neither waits for nor holds up the tasks that read the socket.
enum IdentityWorkSolver {
  /// The nonces for `price` on `connection`, each index solved on one of `threads` threads;
  /// `nil` if one had none (not to be expected below 2^32 tries).
  static func nonces(
    for price: IdentityWork, connection: UUID,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) async -> [UInt32]? {
    let work = Work(price: price, connection: connection)
    let threads = max(1, min(threads, price.count))
    return await withCheckedContinuation { continuation in
      work.done = continuation
      for _ in 0..<threads {
        DetachedThread.start { work.solveUntilDone(threads: threads) }
      }
    }
  }

  /// What the threads share: the next index to take, the answers, and who to tell.
  private final class Work: @unchecked Sendable {
    let price: IdentityWork
    let connection: UUID
    let next = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    let failed = Atomic<Bool>(false)
    /// Each index is written by the one thread that took it, and read after every thread
    /// finished (the atomic `finished` orders them).
    var nonces: [UInt32]
    var done: CheckedContinuation<[UInt32]?, Never>?

    init(price: IdentityWork, connection: UUID) {
      self.price = price
      self.connection = connection
      nonces = [UInt32](repeating: 0, count: price.count)
    }

    func solveUntilDone(threads: Int) {
      while !failed.load(ordering: .relaxed) {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < price.count else { break }
        let found = price.solve(connection: connection, index: index) {
          self.failed.load(ordering: .relaxed)
        }
        guard let found else {
          failed.store(true, ordering: .relaxed)
          break
        }
        nonces.withUnsafeMutableBufferPointer { $0[index] = found }
      }
      if finished.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == threads {
        done?.resume(returning: failed.load(ordering: .relaxed) ? nil : nonces)
      }
    }
  }
}
