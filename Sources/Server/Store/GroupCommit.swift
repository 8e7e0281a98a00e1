import Foundation
import Synchronization

/// Group commit: requests that arrive while a batch of them is being written wait for it,
/// then go together in the next, so a crowd costs a few durable writes, not one each, and a
/// lone request is written at once (it waits for nobody). One batch at a time per session,
/// at most `batchLimit` requests each; nothing is answered before its batch is written.
///
/// Under a storm a batch takes about as long as its durable write, so batches stay small (a
/// vote storm on one core wrote five votes a commit) and each pays a commit's fixed cost.
/// So when a batch has just been written and only a few wait for the next, the next waits
/// until the first of them is `linger` old, or `fullBatch` wait: a few milliseconds more for
/// the vote, several times fewer commits for the database.
package final class GroupCommit<Request: Sendable, Outcome: Sendable>: Sendable {
  /// Writes one batch of a session's requests: one result per request, in order.
  package typealias Write =
    @Sendable ([Request], _ session: Int64) async -> [Result<Outcome, StoreError>]

  private struct Waiting {
    var request: Request
    var reply: @Sendable (Result<Outcome, StoreError>) -> Void
    /// When it came (by `uptime`): the first waiting's, for `linger`.
    var arrived: Duration
  }

  private struct State {
    var waiting: [Int64: [Waiting]] = [:]
    var writing: Set<Int64> = []
    /// Sessions whose batches linger otherwise than `linger` (`linger(_:session:)`).
    var lingers: [Int64: Duration] = [:]
  }

  private let state = Mutex(State())
  /// Requests in one transaction at most: a crowd is several transactions, none of them long.
  package let batchLimit: Int
  /// How long a batch that follows another may wait for more, from its first request's
  /// arrival; `.zero`: none.
  package let linger: Duration
  /// As many waiting as this: the batch goes without lingering.
  package let fullBatch: Int
  private let write: Write
  /// The time now, and a wait: injected (a test's manual clock).
  private let uptime: @Sendable () -> Duration
  private let sleep: @Sendable (Duration) async -> Void

  package init(
    batchLimit: Int, linger: Duration = .zero, fullBatch: Int = 64,
    uptime: @escaping @Sendable () -> Duration = GroupCommit.processUptime(),
    sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) },
    write: @escaping Write
  ) {
    self.batchLimit = batchLimit
    self.linger = linger
    self.fullBatch = fullBatch
    self.uptime = uptime
    self.sleep = sleep
    self.write = write
  }

  /// From now on, `session`'s batches that follow another linger `duration` (the room's
  /// broadcasts spaced wider than its window: its commits in step with them).
  package func linger(_ duration: Duration, session: Int64) {
    state.withLock { state in
      state.lingers[session] = duration == linger ? nil : duration
    }
  }

  /// Time on the continuous clock, from the call.
  package static func processUptime() -> @Sendable () -> Duration {
    let start = ContinuousClock.now
    return { ContinuousClock.now - start }
  }

  /// The request's outcome, once the batch that holds it is written.
  package func submit(_ request: Request, session: Int64) async throws(StoreError) -> Outcome {
    let result = await withCheckedContinuation { continuation in
      submit(request, session: session) { continuation.resume(returning: $0) }
    }
    return try result.get()
  }

  /// The request's outcome told to `reply`, on the batch's task, once the batch that holds it
  /// is written.
  package func submit(
    _ request: Request, session: Int64,
    reply: @escaping @Sendable (Result<Outcome, StoreError>) -> Void
  ) {
    let now = uptime()
    let starts = state.withLock { state in
      state.waiting[session, default: []].append(
        Waiting(request: request, reply: reply, arrived: now))
      return state.writing.insert(session).inserted
    }
    if starts { Task { await self.writeBatches(session: session) } }
  }

  /// Writes batches for `session` until nobody waits. What waits is taken all at once (not
  /// copied again for each batch), and written `batchLimit` at a time; a batch that fails
  /// whole (the database is down, or stalled past its time limit) fails what was taken with
  /// it at once, rather than each waiting its turn to fail the same way.
  private func writeBatches(session: Int64) async {
    var following = false
    while true {
      if following { await lingerForMore(session: session) }
      following = true
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

  /// After a batch: waits while a few wait for the next and the first of them is younger
  /// than the session's linger, looking again every `lingerStep`: a linger cut short (the
  /// room's broadcasts closer again) or a batch filled meanwhile goes then, not after the
  /// linger it began with.
  private func lingerForMore(session: Int64) async {
    while true {
      let (count, first, linger) = state.withLock { state in
        (
          state.waiting[session]?.count ?? 0, state.waiting[session]?.first?.arrived,
          state.lingers[session] ?? self.linger
        )
      }
      guard linger > .zero, count > 0, count < fullBatch, let first else { return }
      let left = linger - (uptime() - first)
      guard left > .zero else { return }
      await sleep(min(left, Self.lingerStep))
    }
  }

  /// How often a lingering batch looks again whether it should go.
  package static var lingerStep: Duration { .milliseconds(10) }

  /// The error a batch failed with, if every request in it failed.
  private static func failedWhole(_ results: [Result<Outcome, StoreError>]) -> StoreError? {
    guard case .failure(let error)? = results.first else { return nil }
    return results.allSatisfy { if case .failure = $0 { true } else { false } } ? error : nil
  }
}
