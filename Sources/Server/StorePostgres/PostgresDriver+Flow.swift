import PostgresNIO
import QnAStore

/// The store's flows (`TransactionFlow`) in PostgreSQL: each in one transaction, on the
/// session's lock when it names one, its advisory locks shared by every instance, and its
/// notices sent as it commits.
extension PostgresDriver {
  package func transact<T: Sendable>(
    _ flow: TransactionFlow<T>, writes: Bool, locking session: Int64?
  ) async throws(StoreError) -> T {
    try await transaction(locking: session, readOnly: !writes) { connection in
      try await self.interpret(flow, connection)
    }
  }

  /// Runs a flow inside a transaction already begun.
  func interpret<T>(_ flow: TransactionFlow<T>, _ connection: PostgresConnection) async throws
    -> T
  {
    var step = flow
    while true {
      switch step {
      case .rows(let statement, let values, let then):
        var rows: [SQLRow] = []
        for try await row in try await connection.query(
          Self.bound(statement, values), logger: logger)
        {
          rows.append(try Self.row(row))
        }
        step = then(rows)
      case .run(let statement, let values, let then):
        try await connection.query(Self.bound(statement, values), logger: logger)
        step = then
      case .runEach(let statement, let values, let then):
        for each in values {
          try await connection.query(Self.bound(statement, each), logger: logger)
        }
        step = then
      case .lock(let lock, let then):
        try await connection.query(
          "SELECT pg_advisory_xact_lock(\(lock.key.0), \(lock.key.1))", logger: logger)
        step = then
      case .tell(let session, let question, let change, let then):
        try await announce(connection, session, question, change)
        step = then
      case .done(let output): return output
      case .fail(let error): throw error
      }
    }
  }

  /// A statement written once for both databases (`PortableSQL`), its values bound in order:
  /// every statement of the driver's own transactions and of the flows.
  static func bound(_ statement: PortableSQL, _ values: [SQLValue]) -> PostgresQuery {
    var bindings = PostgresBindings(capacity: values.count)
    for value in values {
      switch value.storable {
      case .null: bindings.appendNull()
      case .integer(let integer): bindings.append(integer)
      case .real(let real): bindings.append(real)
      case .text(let text): bindings.append(text)
      case .boolean(let boolean): bindings.append(boolean)
      }
    }
    return PostgresQuery(unsafeSQL: statement.postgres, binds: bindings)
  }

  /// A row as the store reads it: whole numbers, reals and text, as SQLite keeps them.
  static func row(_ row: PostgresRow) throws -> SQLRow {
    var values: [SQLValue] = []
    for cell in row {
      guard cell.bytes != nil else {
        values.append(.null)
        continue
      }
      switch cell.dataType {
      case .int2, .int4, .int8: values.append(.integer(try cell.decode(Int64.self)))
      case .float4, .float8: values.append(.real(try cell.decode(Double.self)))
      case .bool: values.append(.boolean(try cell.decode(Bool.self)))
      default: values.append(.text(try cell.decode(String.self)))
      }
    }
    return SQLRow(values)
  }
}
