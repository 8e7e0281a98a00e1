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
    var continuation: CheckedContinuation<Result<Outcome, StoreError>, Never>
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
          Waiting(request: request, continuation: continuation))
        return state.writing.insert(session).inserted
      }
      if starts { Task { await self.writeBatches(session: session) } }
    }
    return try result.get()
  }

  /// Writes batches for `session` until nobody waits.
  private func writeBatches(session: Int64) async {
    while true {
      let batch = state.withLock { state -> [Waiting] in
        let waiting = state.waiting[session] ?? []
        let batch = Array(waiting.prefix(batchLimit))
        state.waiting[session] = Array(waiting.dropFirst(batch.count))
        if batch.isEmpty {
          state.waiting[session] = nil
          state.writing.remove(session)
        }
        return batch
      }
      guard !batch.isEmpty else { return }
      let results = await write(batch.map(\.request), session)
      for (index, waiting) in batch.enumerated() {
        waiting.continuation.resume(
          returning: index < results.count
            ? results[index] : .failure(.unavailable("the batch wrote \(results.count)")))
      }
    }
  }
}
