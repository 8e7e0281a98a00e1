import QnAStore
import Testing

/// A statement written once: SQLite's reading of it, and lists of rows cut into a few
/// statements of a few sizes.
@Suite("PortableSQL")
struct PortableSQLTests {
  @Test func sqliteReadsNumberedPlaceholdersAndNoRowLock() {
    let statement: PortableSQL = "SELECT a FROM t WHERE b = $1 AND c = $2 FOR UPDATE"
    #expect(statement.postgres.hasSuffix("FOR UPDATE"))
    #expect(statement.sqlite == "SELECT a FROM t WHERE b = ?1 AND c = ?2")
    #expect(PortableSQL("SELECT 1 FROM t WHERE id = $1 FOR SHARE").sqlite.hasSuffix("?1"))
  }

  /// 600 rows: two statements of 256, then 88 as 64 + 16 + 8; each row once, in order.
  @Test func aListIsAFewStatementsOfAFewSizes() {
    let rows = (0..<600).map { [SQLValue.integer(Int64($0))] }
    let batches = PortableSQL.batches(of: rows) { PortableSQL("INSERT \($0)") }
    #expect(
      batches.map(\.statement.postgres) == ["INSERT 256", "INSERT 64", "INSERT 16", "INSERT 8"])
    #expect(batches.map(\.values.count) == [2, 1, 1, 1])
    let written = batches.flatMap { $0.values.flatMap { $0 } }
    #expect(written == rows.flatMap { $0 })
    // However long the list, at most one statement per whole chunk and eight for the rest.
    for count in [0, 1, 255, 257, 1000] {
      let cut = PortableSQL.batches(of: Array(rows.prefix(count))) { PortableSQL("\($0)") }
      #expect(cut.reduce(0) { $0 + $1.values.count } <= count / 256 + 8)
    }
  }

  @Test func keysAreReadAsRowsOfValuesNumberedInOrder() {
    let statement = PortableSQL.keyed("DELETE FROM vote WHERE", by: ["a", "b"], rows: 2)
    #expect(
      statement.postgres
        == "DELETE FROM vote WHERE (a, b) IN (SELECT column1, column2 FROM (VALUES ($1, $2), ($3, $4)) AS keyed)"
    )
    #expect(
      statement.sqlite
        == "DELETE FROM vote WHERE (a, b) IN (SELECT column1, column2 FROM (VALUES (?1, ?2), (?3, ?4)) AS keyed)"
    )
    // In the order of the index that finds them, the values as the caller gives them.
    let reordered = PortableSQL.keyed(
      "SELECT 1 FROM question WHERE", by: ["session", "id"], rows: 1, indexed: ["id", "session"])
    #expect(
      reordered.postgres
        == "SELECT 1 FROM question WHERE (id, session) IN (SELECT column2, column1 FROM (VALUES ($1, $2)) AS keyed)"
    )
    // Columns of different types: each after the first listed again on its own, the same
    // numbered values.
    let mixed = PortableSQL.keyed(
      "SELECT 1 FROM attendee WHERE", by: ["session", "id"], rows: 1, mixedTypes: true)
    #expect(
      mixed.postgres
        == "SELECT 1 FROM attendee WHERE (session, id) IN (SELECT column1, column2 FROM (VALUES ($1, $2)) AS keyed)"
        + " AND id IN (SELECT column2 FROM (VALUES ($1, $2)) AS keyed)")
    // Reordered for the index, three columns: each after the first in the index's order.
    let presence = PortableSQL.keyed(
      "DELETE FROM presence WHERE", by: ["instance", "session", "attendee"], rows: 1,
      indexed: ["session", "attendee", "instance"], mixedTypes: true)
    #expect(
      presence.sqlite
        == "DELETE FROM presence WHERE (session, attendee, instance) IN (SELECT column2, column3, column1 FROM (VALUES (?1, ?2, ?3)) AS keyed)"
        + " AND attendee IN (SELECT column3 FROM (VALUES (?1, ?2, ?3)) AS keyed)"
        + " AND instance IN (SELECT column1 FROM (VALUES (?1, ?2, ?3)) AS keyed)")
  }

  /// 300 keys: one statement of 256, then the 44 left in one of 64, padded with the last key.
  @Test func keysAreReadInAStatementPerChunkThePaddedRestInOne() {
    let keys = (0..<1000).map { [SQLValue.integer(Int64($0))] }
    let batches = PortableSQL.readBatches(of: Array(keys.prefix(300))) {
      PortableSQL("SELECT \($0)")
    }
    #expect(batches.map(\.statement.postgres) == ["SELECT 256", "SELECT 64"])
    #expect(
      batches[1].values.count == 64
        && Set(batches[1].values)
          == Set(
            (256..<300).map {
              SQLValue.integer(Int64($0))
            })
    )
    for count in [0, 1, 3, 255, 256, 257, 1000] {
      let cut = PortableSQL.readBatches(of: Array(keys.prefix(count))) { PortableSQL("\($0)") }
      #expect(cut.count == (count + 255) / 256)
      #expect(Set(cut.flatMap(\.values)) == Set(keys.prefix(count).flatMap { $0 }))
    }
  }
}
