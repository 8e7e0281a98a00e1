import Foundation
import GRDB
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
        // Each row read where the statement stands: `Row.fetchAll` copies every row first,
        // with its columns' names (a tenth of the database's CPU in a vote storm).
        let cursor = try Row.fetchCursor(prepared, arguments: arguments(values))
        var rows: [SQLRow] = []
        while let next = try cursor.next() { rows.append(row(next)) }
        step = then(rows)
      case .run(let statement, let values, let then):
        try statementFor(statement, db, readOnly: readOnly).execute(arguments: arguments(values))
        step = then
      case .runEach(let statement, let values, let then):
        let prepared = try statementFor(statement, db, readOnly: readOnly)
        for each in values { try prepared.execute(arguments: arguments(each)) }
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

  static func arguments(_ values: [SQLValue]) -> StatementArguments {
    StatementArguments(
      values.map { value -> (any DatabaseValueConvertible)? in
        switch value.storable {
        case .null: nil
        case .integer(let integer): integer
        case .real(let real): real
        case .text(let text): text
        case .boolean(let boolean): boolean
        }
      })
  }

  static func row(_ row: Row) -> SQLRow {
    SQLRow(
      row.databaseValues.map { value in
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .text(String(decoding: data, as: UTF8.self))
        }
      })
  }
}
