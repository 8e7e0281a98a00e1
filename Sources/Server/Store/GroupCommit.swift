import Foundation
import Synchronization

/// Group commit: requests that arrive while a batch of them is being written wait for it,
/// then go together in the next, so a crowd costs a few durable writes, not one each, and a
/// lone request is written at once (it waits for nobody). One batch at a time per session,
/// at most `batchLimit` requests each; nothing is answered before its batch is written.
package final class GroupCommit<Request: Sendable, Outcome: Sendable>: Sendable {
  /// Writes one batch of a session's requests: one result per request, in order.
  package typealias Write =
    @Sendable ([Request], _ session: Int64) async -> [Result<Outcome, StoreError>]

  private struct Waiting {
    var request: Request
    var reply: @Sendable (Result<Outcome, StoreError>) -> Void
  }

  private struct State {
    var waiting: [Int64: [Waiting]] = [:]
    var writing: Set<Int64> = []
  }

  private let state = Mutex(State())
  /// Requests in one transaction at most: a crowd is several transactions, none of them long.
  package let batchLimit: Int
  private let write: Write

  package init(batchLimit: Int, write: @escaping Write) {
    self.batchLimit = batchLimit
    self.write = write
  }

  /// The request's outcome, once the batch that holds it is written.
  package func submit(_ request: Request, session: Int64) async throws(StoreError) -> Outcome {
    let result = await withCheckedContinuation { continuation in
      let starts = state.withLock { state in
        state.waiting[session, default: []].append(
          Waiting(request: request, reply: { continuation.resume(returning: $0) }))
        return state.writing.insert(session).inserted
      }
      if starts { Task { await self.writeBatches(session: session) } }
    }
    return try result.get()
  }

  /// Writes batches for `session` until nobody waits. What waits is taken all at once (not
  /// copied again for each batch), and written `batchLimit` at a time; a batch that fails
  /// whole (the database is down, or stalled past its time limit) fails what was taken with
  /// it at once, rather than each waiting its turn to fail the same way.
  private func writeBatches(session: Int64) async {
    while true {
      let taken = state.withLock { state -> [Waiting] in
        let waiting = state.waiting.removeValue(forKey: session) ?? []
        if waiting.isEmpty { state.writing.remove(session) }
        return waiting
      }
      guard !taken.isEmpty else { return }
      var start = 0
      while start < taken.count {
        let batch = taken[start..<min(taken.count, start + batchLimit)]
        let results = await write(batch.map(\.request), session)
        for (index, waiting) in batch.enumerated() {
          waiting.reply(
            index < results.count
              ? results[index] : .failure(.unavailable("the batch wrote \(results.count)")))
        }
        start += batch.count
        if let failure = Self.failedWhole(results) {
          for waiting in taken[start...] { waiting.reply(.failure(failure)) }
          break
        }
      }
    }
  }

  /// The error a batch failed with, if every request in it failed.
  private static func failedWhole(_ results: [Result<Outcome, StoreError>]) -> StoreError? {
    guard case .failure(let error)? = results.first else { return nil }
    return results.allSatisfy { if case .failure = $0 { true } else { false } } ? error : nil
  }
}
