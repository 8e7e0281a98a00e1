import QnAStore
import QnAStoreLocation
import Testing

/// `--db` to a store: which driver a location names, and what is refused before a start.
@Suite("Store locations")
struct StoreLocationTests {
  @Test func anSQLitePathOpensAStoreOnlyThisProcessWrites() async throws {
    let store = try StoreLocation.open(":memory:")
    #expect(!store.isShared, "SQLite: no other instance hears of its changes")
    try await store.prepare()
    #expect(try await store.count() == 0)
  }

  @Test func aPostgresURLIsToldApartAndCheckedWithoutEchoingItsPassword() {
    #expect(StoreLocation.isPostgres("postgres://qna@db/qna"))
    #expect(StoreLocation.isPostgres("postgresql://qna@db/qna"))
    #expect(!StoreLocation.isPostgres("qna.sqlite"))
    #expect(throws: Never.self) { try StoreLocation.validate("qna.sqlite") }
    let error = #expect(throws: StoreError.self) {
      try StoreLocation.validate("postgres://qna:hunter2@db/qna?sslmode=bogus")
    }
    #expect(!"\(error.map { "\($0)" } ?? "")".contains("hunter2"))
    #expect(StoreLocation.defaultPath == "qna.sqlite")
  }
}
