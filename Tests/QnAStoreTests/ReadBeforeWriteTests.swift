import Foundation
import QnA
import QnAStore
import QnAStoreSQLite
import Synchronization
import TestSupport
import Testing

/// A resume that moves nothing is read, not written: a socket flooding them takes no turn on
/// the session's lock (and SQLite's one writer) from the writes that matter. (A question sent
/// again on its connection is answered from the read `QuestionIntake` makes of its token.)
@Suite("qna-server: resumes that move nothing write nothing")
struct ReadBeforeWriteTests {
  /// The SQLite driver, counting the transactions that write.
  final class CountingDriver: StoreDriver {
    let inner: SQLiteDriver
    let writes = Mutex(0)

    init(_ inner: SQLiteDriver) { self.inner = inner }

    func prepare() async throws(StoreError) { try await inner.prepare() }
    func ping() async throws(StoreError) { try await inner.ping() }
    func close() async { await inner.close() }
    var roomFeed: RoomFeed? { inner.roomFeed }
    var health: StoreHealth? { inner.health }
    func transact<T: Sendable>(_ flow: TransactionFlow<T>, writes: Bool, locking session: Int64?)
      async throws(StoreError) -> T
    {
      if writes { self.writes.withLock { $0 += 1 } }
      return try await inner.transact(flow, writes: writes, locking: session)
    }
  }

  @Test func onlyWhatMovesIsWritten() async throws {
    let driver = CountingDriver(try SQLiteDriver(path: ":memory:"))
    let store = QuestionStore(driver: driver)
    let (first, second) = (uuid(1, group: 0xE1), uuid(2, group: 0xE1))
    let question = StoredQuestion(
      id: uuid(1), content: "Why?", askedFrom: first, createdAt: Date(), token: uuid(1, group: 0x70)
    )
    #expect(try await store.insert(question).inserted)
    let written = driver.writes.withLock { $0 }
    // Resumed where it is: nothing moves.
    for _ in 0..<3 {
      #expect(
        try await store.reassign(ids: [], tokens: [uuid(1, group: 0x70)], to: first, attendee: nil)
          .map(\.id) == [uuid(1)])
    }
    #expect(driver.writes.withLock { $0 } == written)
    // Resumed on another connection it moves, once.
    for _ in 0..<3 {
      #expect(
        try await store.reassign(ids: [], tokens: [uuid(1, group: 0x70)], to: second, attendee: nil)
          .map(\.askedFrom) == [second])
    }
    #expect(driver.writes.withLock { $0 } == written + 1)
  }
}
