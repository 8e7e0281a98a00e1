import Foundation
import Synchronization

/// One join's claim of an attendee id (extension `identity`), as the store batches it.
package struct ClaimRequest: Sendable {
  package var attendee: UUID
  package var credential: UUID?
  package var mint: UUID?
  package var name: String?
  package var time: Date

  package init(attendee: UUID, credential: UUID?, mint: UUID?, name: String?, time: Date) {
    self.attendee = attendee
    self.credential = credential
    self.mint = mint
    self.name = name
    self.time = time
  }
}

/// Group commit for joins: claims that arrive while a transaction of claims is being written
/// wait for it and then go together in the next one, so a crowd joining at once costs a few
/// durable writes, not one each, and a lone join is written at once (it waits for nobody).
/// One batch at a time per session; each claim is decided inside the transaction as if alone.
package final class ClaimBatcher: Sendable {
  private struct Waiting {
    var request: ClaimRequest
    var continuation: CheckedContinuation<Result<AttendeeClaim, StoreError>, Never>
  }

  private struct State {
    var waiting: [Int64: [Waiting]] = [:]
    var writing: Set<Int64> = []
  }

  private let state = Mutex(State())
  /// Claims in one transaction at most: a crowd is several transactions, none of them long.
  package static let batchLimit = 256

  package init() {}

  package func claim(
    _ request: ClaimRequest, session: Int64, driver: any StoreDriver
  ) async throws(StoreError) -> AttendeeClaim {
    let result = await withCheckedContinuation { continuation in
      let starts = state.withLock { state in
        state.waiting[session, default: []].append(
          Waiting(request: request, continuation: continuation))
        return state.writing.insert(session).inserted
      }
      if starts { Task { await self.write(session: session, driver: driver) } }
    }
    return try result.get()
  }

  /// One result per request, in order. The batch goes in attendee order (two instances
  /// locking the same rows lock them in the same order: no deadlock); a batch that fails is
  /// tried claim by claim, so that one bad claim fails only itself.
  private static func write(
    _ requests: [ClaimRequest], _ session: Int64, _ driver: any StoreDriver
  ) async -> [Result<AttendeeClaim, StoreError>] {
    let order = requests.indices.sorted {
      requests[$0].attendee.uuidString < requests[$1].attendee.uuidString
    }
    do throws(StoreError) {
      let claims = try await driver.perform(.claims(order.map { requests[$0] }, session: session))
      guard claims.count == requests.count else {
        throw StoreError.unavailable("\(claims.count) claims for \(requests.count) requests")
      }
      var results = [Result<AttendeeClaim, StoreError>](
        repeating: .failure(.unavailable("unwritten")), count: requests.count)
      for (position, index) in order.enumerated() { results[index] = .success(claims[position]) }
      return results
    } catch {
      guard requests.count > 1 else { return [.failure(error)] }
      var results: [Result<AttendeeClaim, StoreError>] = []
      for request in requests {
        do throws(StoreError) {
          let claims = try await driver.perform(.claims([request], session: session))
          results.append(claims.first.map { .success($0) } ?? .failure(error))
        } catch let single {
          results.append(.failure(single))
        }
      }
      return results
    }
  }

  /// Writes batches for `session` until nobody waits.
  private func write(session: Int64, driver: any StoreDriver) async {
    while true {
      let batch = state.withLock { state -> [Waiting] in
        let waiting = state.waiting[session] ?? []
        let batch = Array(waiting.prefix(Self.batchLimit))
        state.waiting[session] = Array(waiting.dropFirst(batch.count))
        if batch.isEmpty {
          state.waiting[session] = nil
          state.writing.remove(session)
        }
        return batch
      }
      guard !batch.isEmpty else { return }
      let results = await Self.write(batch.map(\.request), session, driver)
      for (waiting, result) in zip(batch, results) {
        waiting.continuation.resume(returning: result)
      }
    }
  }
}
