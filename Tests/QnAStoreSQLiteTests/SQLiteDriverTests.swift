import QnAStoreSQLite
import TestSupport
import Testing

/// What only the SQLite driver promises (the store suite, in QnAStoreTests, runs every rule
/// on both drivers).
@Suite("The SQLite driver")
struct SQLiteDriverTests {
  @Test func everyCommitIsSyncedToDiskBeforeItIsAcknowledged() async throws {
    let path = HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
    let store = try SQLiteDriver(path: path)
    #expect(try await store.synchronousLevel() == 2, "PRAGMA synchronous = FULL")
  }
}
