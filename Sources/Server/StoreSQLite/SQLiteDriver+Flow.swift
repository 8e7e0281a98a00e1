import Foundation
import GRDB
import GRDBSQLite
import QnAStore

/// The store's flows (`TransactionFlow`) in SQLite: each in one of GRDB's transactions. Its
/// writes are one at a time, so a flow's locks need nothing more, and no other instance
/// shares the file to be told.
extension SQLiteDriver {
  package func transact<T: Sendable>(
    _ flow: TransactionFlow<T>, writes: Bool, locking session: Int64?
  ) async throws(StoreError) -> T {
    writes
      ? try await run { db in try Self.interpret(flow, db) }
      : try await read { db in try Self.interpret(flow, db, readOnly: true) }
  }

  /// `readOnly`: a statement that would write fails the flow before it runs, as PostgreSQL's
  /// read-only transaction does.
  static func interpret<T>(_ flow: TransactionFlow<T>, _ db: Database, readOnly: Bool = false)
    throws -> T
  {
    var step = flow
    while true {
      switch step {
      case .rows(let statement, let values, let then):
        let prepared = try statementFor(statement, db, readOnly: readOnly)
        try bind(values, to: prepared)
        // Each row read where the statement stands: `Row.fetchAll` copies every row first,
        // with its columns' names (a tenth of the database's CPU in a vote storm).
        let cursor = try Row.fetchCursor(prepared)
        var rows: [SQLRow] = []
        while try cursor.next() != nil { rows.append(try row(prepared.sqliteStatement)) }
        step = then(rows)
      case .run(let statement, let values, let then):
        let prepared = try statementFor(statement, db, readOnly: readOnly)
        try bind(values, to: prepared)
        try prepared.execute()
        step = then
      case .runEach(let statement, let values, let then):
        let prepared = try statementFor(statement, db, readOnly: readOnly)
        for each in values {
          try bind(each, to: prepared)
          try prepared.execute()
        }
        step = then
      case .lock(_, let then), .tell(_, _, _, let then): step = then
      case .done(let output): return output
      case .fail(let error): throw error
      }
    }
  }

  private static func statementFor(_ statement: PortableSQL, _ db: Database, readOnly: Bool)
    throws -> Statement
  {
    let prepared = try db.cachedStatement(sql: statement.sqlite)
    guard !readOnly || prepared.isReadonly else {
      throw StoreError.unavailable("a read would write: \(statement.sqlite)")
    }
    return prepared
  }

  /// `values` bound to `statement`'s `?1`, `?2`…, checked by their number alone. Bound here
  /// rather than through GRDB's arguments, which box each value and check every binding
  /// again (a tenth of the database's CPU in a vote storm): GRDB's own are left empty and
  /// counted as bound, so it resets the statement before each run and keeps these.
  private static func bind(_ values: [SQLValue], to statement: Statement) throws {
    let sqlite = statement.sqliteStatement
    let expected = Int(sqlite3_bind_parameter_count(sqlite))
    guard values.count == expected else {
      throw StoreError.unavailable(
        "\(values.count) values for \(expected) parameters: \(statement.sql)")
    }
    statement.setUncheckedArguments(StatementArguments())
    for (index, value) in zip(Int32(1)..., values) {
      let code: Int32
      switch value.storable {
      case .null: code = sqlite3_bind_null(sqlite, index)
      case .integer(let integer): code = sqlite3_bind_int64(sqlite, index, integer)
      case .real(let real): code = sqlite3_bind_double(sqlite, index, real)
      case .boolean(let boolean): code = sqlite3_bind_int64(sqlite, index, boolean ? 1 : 0)
      case .text(var text):
        // (An empty text may have no address: bound as the empty C string, not as NULL.)
        code =
          text.isEmpty
          ? sqlite3_bind_text(sqlite, index, "", 0, transient)
          : text.withUTF8 { bytes in
            sqlite3_bind_text64(
              sqlite, index,
              UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
              UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
          }
      }
      guard code == SQLITE_OK else {
        throw StoreError.unavailable("binding ?\(index) failed (\(code)): \(statement.sql)")
      }
    }
  }

  /// SQLite copies a value bound with it before the call returns.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  /// The row `statement` stands on, read column by column.
  static func row(_ statement: SQLiteStatement) throws(StoreError) -> SQLRow {
    var values: [SQLValue] = []
    let count = sqlite3_column_count(statement)
    values.reserveCapacity(Int(count))
    for column in 0..<count {
      switch sqlite3_column_type(statement, column) {
      case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
      case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, column)))
      case SQLITE_TEXT, SQLITE_BLOB:
        // Text before its length (SQLite converts a blob to text first, if it must). No
        // pointer: an empty value, or no memory left for the text.
        guard let text = sqlite3_column_text(statement, column) else {
          guard sqlite3_errcode(sqlite3_db_handle(statement)) != SQLITE_NOMEM else {
            throw .unavailable("out of memory reading a row")
          }
          values.append(.text(""))
          continue
        }
        let length = Int(sqlite3_column_bytes(statement, column))
        values.append(
          .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)))
      default: values.append(.null)
      }
    }
    return SQLRow(values)
  }
}
