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
  /// locking the same rows lock them in the same order: no deadlock). A batch that fails is
  /// tried again in halves, and so is any half that fails beside one that did not, so that a
  /// claim the database cannot take fails only itself, in a few transactions; two halves that
  /// both fail are the database, not a claim, and fail as they are (three transactions, not
  /// one per claim, while the database is down).
  private static func writeClaims(
    _ requests: [ClaimRequest], _ session: Int64, _ driver: any StoreDriver
  ) async -> [Result<AttendeeClaim, StoreError>] {
    let order = requests.indices.sorted {
      requests[$0].attendee.text < requests[$1].attendee.text
    }
    let sorted = order.map { requests[$0] }[...]
    let written: [Result<AttendeeClaim, StoreError>]
    switch await attempt(sorted, session, driver) {
    case .success(let claims): written = claims.map { .success($0) }
    case .failure(let error):
      written =
        sorted.count > 1
        ? await halves(sorted, session, driver) : [.failure(error)]
    }
    var results = [Result<AttendeeClaim, StoreError>](
      repeating: .failure(.unavailable("unwritten")), count: requests.count)
    for (position, index) in order.enumerated() { results[index] = written[position] }
    return results
  }

  /// `requests`, which failed together, tried again as two halves.
  private static func halves(
    _ requests: ArraySlice<ClaimRequest>, _ session: Int64, _ driver: any StoreDriver
  ) async -> [Result<AttendeeClaim, StoreError>] {
    let middle = requests.startIndex + requests.count / 2
    let (first, second) = (requests[..<middle], requests[middle...])
    let (early, late) = (
      await attempt(first, session, driver), await attempt(second, session, driver)
    )
    func each(_ part: ArraySlice<ClaimRequest>, _ result: Result<[AttendeeClaim], StoreError>)
      -> [Result<AttendeeClaim, StoreError>]
    {
      switch result {
      case .success(let claims): claims.map { .success($0) }
      case .failure(let error): part.map { _ in .failure(error) }
      }
    }
    switch (early, late) {
    case (.failure, .success) where first.count > 1:
      return await halves(first, session, driver) + each(second, late)
    case (.success, .failure) where second.count > 1:
      return each(first, early) + (await halves(second, session, driver))
    default:
      return each(first, early) + each(second, late)
    }
  }

  /// One transaction of claims.
  private static func attempt(
    _ requests: ArraySlice<ClaimRequest>, _ session: Int64, _ driver: any StoreDriver
  ) async -> Result<[AttendeeClaim], StoreError> {
    do throws(StoreError) {
      let claims = try await driver.perform(.claims(Array(requests), session: session))
      guard claims.count == requests.count else {
        throw StoreError.unavailable("\(claims.count) claims for \(requests.count) requests")
      }
      return .success(claims)
    } catch {
      return .failure(error)
    }
  }
}
