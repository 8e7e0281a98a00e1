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

  /// A batch of votes changes more pages than SQLite keeps of a statement's journal in
  /// memory by default; a temporary file for it would be made again at every statement.
  @Test func statementJournalsStayInMemory() async throws {
    let path = HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
    let store = try SQLiteDriver(path: path)
    #expect(try await store.temporaryStore() == 2, "PRAGMA temp_store = MEMORY")
  }

  /// A list of keys is looked up in an index, key by key: a batch of votes never reads every
  /// vote of the room (a row value `IN (VALUES …)` scanned the table, a batch at a time), and
  /// a delta's few askers never every attendee of the session (a search by the session alone,
  /// when the key's columns differ in type). Each search is by every column of the key, or by
  /// a unique index's.
  @Test func everyListOfKeysIsSearchedInAnIndex() async throws {
    let path = HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
    let store = try SQLiteDriver(path: path)
    for (table, statement) in KeyedLookups.all {
      let plan = try await store.plan(of: statement)
      // The rowid is a unique key too (`USING INTEGER PRIMARY KEY (rowid=?)`).
      let unique = try await store.uniqueKeys(of: table).map(Set.init) + [["rowid"]]
      // `… (session, id) IN (SELECT …`: the key's columns.
      let key = statement.sqlite.firstRange(of: ") IN (SELECT").flatMap {
        statement.sqlite[..<$0.lowerBound].split(separator: "(").last
      }.map { Set($0.split(separator: ", ").map(String.init)) }
      // `SEARCH vote USING … (attendee=? AND question=?)`: the columns searched by value.
      let searched = plan.filter { $0.hasPrefix("SEARCH \(table) ") }.map { line in
        Set(
          (line.split(separator: "(").last ?? "").split(separator: " AND ").compactMap {
            $0.hasSuffix("=?") || $0.hasSuffix("=?)") ? String($0.prefix { $0 != "=" }) : nil
          })
      }
      #expect(key?.isEmpty == false, "\(statement.sqlite)")
      #expect(
        !searched.isEmpty
          && !plan.contains { $0.hasPrefix("SCAN \(table) ") || $0.contains("AUTOMATIC") }
          && searched.allSatisfy { columns in
            key.map(columns.isSuperset) == true || unique.contains { $0.isSubset(of: columns) }
          },
        "\(statement.sqlite): \(plan), unique keys \(unique)")
    }
  }

  /// Values are bound and read back as they are, an empty text as text (not NULL), a text's
  /// NUL characters dropped as `SQLValue.storable` drops them, the same statement again with
  /// other values; a statement given more or fewer values than it has parameters fails.
  @Test func valuesAreBoundAndReadAsTheyAre() async throws {
    let store = try SQLiteDriver(path: ":memory:")
    let statement: PortableSQL = "SELECT $1, $2, $3, $4, $5, $6, typeof($1), typeof($2)"
    let read = { (values: [SQLValue]) in
      try await store.transact(
        TransactionFlow<[SQLRow]>.rows(statement, values) { .done($0) }, writes: false,
        locking: nil)
    }
    let first = try await read([.text(""), .null, -5, 1.5, .boolean(true), .text("é\u{0}x")])
    #expect(
      first == [SQLRow([.text(""), .null, -5, 1.5, 1, .text("éx"), .text("text"), .text("null")])])
    let again = try await read([.text("a"), .integer(7), 0, -0.25, .boolean(false), .text("b")])
    #expect(
      again == [SQLRow([.text("a"), 7, 0, -0.25, 0, .text("b"), .text("text"), .text("integer")])])
    for wrong in [[SQLValue](repeating: .null, count: 5), .init(repeating: .null, count: 7)] {
      await #expect(throws: StoreError.self) { try await read(wrong) }
    }
  }

  /// A statement that failed (a key taken) runs again in the next flow with its new values:
  /// GRDB drops a failed statement from its cache, and nothing of the failed flow stays.
  @Test func aStatementThatFailedRunsAgainWithNewValues() async throws {
    let store = try SQLiteDriver(path: ":memory:")
    let insert: PortableSQL = "INSERT INTO roomState (key, value) VALUES ($1, $2)"
    let twice = TransactionFlow<Int>.run(
      insert, [.text("taken"), .text("1")],
      then: .run(insert, [.text("taken"), .text("2")], then: .done(0)))
    await #expect(throws: StoreError.self) {
      try await store.transact(twice, writes: true, locking: nil)
    }
    let once = TransactionFlow<Int>.run(insert, [.text("free"), .text("3")], then: .done(0))
    _ = try await store.transact(once, writes: true, locking: nil)
    let read = TransactionFlow<[SQLRow]>.rows(
      "SELECT key, value FROM roomState WHERE key IN ($1, $2) ORDER BY key",
      [.text("free"), .text("taken")]
    ) { .done($0) }
    #expect(
      try await store.transact(read, writes: false, locking: nil) == [
        SQLRow([.text("free"), .text("3")])
      ])
  }

  /// A read leaves the connection's prepared statements as they are: GRDB's own read turned
  /// `PRAGMA query_only` on and off, which expired every one of them, so each was compiled
  /// again on its next use, the vote batch's statements too.
  @Test func aReadDoesNotMakeTheWritesCompileAgain() async throws {
    let path = HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
    let store = try SQLiteDriver(path: path)
    let statement: PortableSQL = "SELECT value FROM roomState WHERE key = $1"
    let flow = TransactionFlow<Int>.rows(statement, [.text("epoch")]) { .done($0.count) }
    for writes in [true, false, true, false, true] {
      #expect(try await store.transact(flow, writes: writes, locking: nil) == 1)
    }
    #expect(try await store.recompilations(of: statement) == 0)
  }

  /// A read that would write fails before it writes, as PostgreSQL's read-only transaction
  /// does.
  @Test func aReadThatWouldWriteFailsAndWritesNothing() async throws {
    let path = HeadlessProcess.freshDirectory().appendingPathComponent("qna.sqlite").path
    let store = try SQLiteDriver(path: path)
    let insert = TransactionFlow<Int>.run(
      "INSERT INTO roomState (key, value) VALUES ($1, $2)", [.text("extra"), .text("1")],
      then: .done(0))
    await #expect(throws: StoreError.self) {
      try await store.transact(insert, writes: false, locking: nil)
    }
    let count = TransactionFlow<Int>.rows(
      "SELECT count(*) FROM roomState WHERE key = $1", [.text("extra")]
    ) { .done($0.first?.int(0) ?? -1) }
    #expect(try await store.transact(count, writes: false, locking: nil) == 0)
    #expect(try await store.transact(insert, writes: true, locking: nil) == 0)
    #expect(try await store.transact(count, writes: false, locking: nil) == 1)
  }
}
