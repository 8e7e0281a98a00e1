import QnAStore
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

  /// A list of keys is looked up in an index, key by key: a batch of votes never reads every
  /// vote of the room (a row value `IN (VALUES …)` scanned the table, a batch at a time).
  @Test func everyListOfKeysIsSearchedInAnIndex() async throws {
    let path = HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
    let store = try SQLiteDriver(path: path)
    for (table, statement) in KeyedLookups.all {
      let plan = try await store.plan(of: statement)
      #expect(
        plan.contains { $0.hasPrefix("SEARCH \(table) ") }
          && !plan.contains { $0.hasPrefix("SCAN \(table)") },
        "\(statement.sqlite): \(plan)")
    }
  }
}
