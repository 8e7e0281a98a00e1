import Foundation

/// What only the mock asks of a database (`--mock`'s `/control/room/questions` and
/// `/control/room/votes`, for tests and benchmarks): many questions, or many votes, in one
/// transaction. Apart from `StoreDriver`, which is what the server needs; both drivers have
/// it.
package protocol SeedingDriver: StoreDriver {
  func seed(_ questions: [StoredQuestion], session: Int64) async throws(StoreError)
  /// `count` votes for `question` from attendees who never voted; `nil`: no such question.
  func simulateVotes(
    for question: UUID, count: Int, at time: Date, makeID: @escaping @Sendable () -> UUID,
    session: Int64
  ) async throws(StoreError) -> Int?
}
