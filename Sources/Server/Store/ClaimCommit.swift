import Foundation

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

/// Joins' claims, written together when they come together (`GroupCommit`): a crowd joining
/// at once costs a few durable writes, not one each. Each claim is decided inside the
/// transaction as if alone.
extension GroupCommit where Request == ClaimRequest, Outcome == AttendeeClaim {
  package static func claims(on driver: any StoreDriver) -> GroupCommit {
    GroupCommit(batchLimit: 256) { requests, session in
      await writeClaims(requests, session, driver)
    }
  }

  /// One result per request, in order. The batch goes in attendee order (two instances
  /// locking the same rows lock them in the same order: no deadlock); a batch that fails is
  /// tried claim by claim, so that one bad claim fails only itself.
  private static func writeClaims(
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
}
