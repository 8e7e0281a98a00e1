import Foundation

/// A transaction's steps written once for both databases: its statements (`PortableSQL`),
/// what it makes of their rows, its locks and its notices. A driver only runs a flow
/// (`FlowDriver.transact`), in a transaction of its own kind, so that what the store does
/// is one piece of code; what stays each driver's own is how it connects, locks, listens
/// and binds.
package indirect enum TransactionFlow<Output: Sendable>: Sendable {
  /// Runs a statement, and goes on with its rows.
  case rows(PortableSQL, [SQLValue], then: @Sendable ([SQLRow]) -> TransactionFlow<Output>)
  /// Runs a statement, and goes on.
  case run(PortableSQL, [SQLValue], then: TransactionFlow<Output>)
  /// Runs a statement once for each of these values, in order, and goes on.
  case runEach(PortableSQL, [[SQLValue]], then: TransactionFlow<Output>)
  /// Waits for every other transaction holding `lock`, on every instance, until this one
  /// ends (PostgreSQL's advisory lock; SQLite's writes are one at a time already).
  case lock(TransactionLock, then: TransactionFlow<Output>)
  /// Tells the other instances, once it commits, that `session` changed so, about
  /// `question` if it names one (PostgreSQL's notice; no other instance shares an SQLite
  /// file).
  case tell(session: Int64, question: UUID?, RoomChange, then: TransactionFlow<Output>)
  /// The transaction's outcome: it commits.
  case done(Output)
  /// Nothing is kept: the transaction rolls back, and the call throws `error`.
  case fail(StoreError)
}

/// What a flow's `lock` serializes: one name for every instance on the database.
package enum TransactionLock: Sendable, Hashable {
  /// Presenters' logins: a scope's cap holds when two instances log presenters in at once.
  case logins

  /// PostgreSQL's advisory lock key: the project's prefix and the lock's number.
  package var key: (Int32, Int32) {
    switch self {
    case .logins: (0x716E_6C, 1)
    }
  }
}

/// A driver that runs flows: each in one transaction, which writes or only reads.
package protocol FlowDriver: Sendable {
  /// `locking`: the session whose writes this one waits for, on every instance.
  func transact<T: Sendable>(
    _ flow: TransactionFlow<T>, writes: Bool, locking session: Int64?
  ) async throws(StoreError) -> T
}

extension FlowDriver {
  /// A flow that writes, waiting for no session's lock.
  package func perform<T: Sendable>(_ flow: TransactionFlow<T>) async throws(StoreError) -> T {
    try await transact(flow, writes: true, locking: nil)
  }

  /// A flow that only reads.
  package func fetch<T: Sendable>(_ flow: TransactionFlow<T>) async throws(StoreError) -> T {
    try await transact(flow, writes: false, locking: nil)
  }
}

extension TransactionFlow {
  /// Runs the statements in order, then goes on with `next`.
  package static func runAll(
    _ statements: [(PortableSQL, [SQLValue])], then next: TransactionFlow<Output>
  ) -> TransactionFlow<Output> {
    statements.reversed().reduce(next) { flow, statement in
      .run(statement.0, statement.1, then: flow)
    }
  }
}

extension TransactionFlow {
  /// Writes `rows` in batches (`PortableSQL.batches`), then goes on with `next`.
  package static func runInChunks(
    _ rows: [[SQLValue]], chunk: Int = 256, _ statement: (Int) -> PortableSQL,
    then next: TransactionFlow
  ) -> TransactionFlow {
    PortableSQL.batches(of: rows, chunk: chunk, statement).reversed().reduce(next) {
      flow, batch in .runEach(batch.statement, batch.values, then: flow)
    }
  }

  /// The rows `statement(n)` reads for the keys `rows`, a batch at a time
  /// (`PortableSQL.readBatches`), together, then goes on with them.
  package static func rowsInBatches(
    _ rows: [[SQLValue]], chunk: Int = 256, _ statement: (Int) -> PortableSQL,
    then next: @escaping @Sendable ([SQLRow]) -> TransactionFlow
  ) -> TransactionFlow {
    let runs = PortableSQL.readBatches(of: rows, chunk: chunk, statement).map {
      ($0.statement, $0.values)
    }
    return readAll(runs[...], [], then: next)
  }

  private static func readAll(
    _ runs: ArraySlice<(PortableSQL, [SQLValue])>, _ read: [SQLRow],
    then next: @escaping @Sendable ([SQLRow]) -> TransactionFlow
  ) -> TransactionFlow {
    guard let (statement, values) = runs.first else { return next(read) }
    return .rows(statement, values) { rows in
      readAll(runs.dropFirst(), read + rows, then: next)
    }
  }

  /// This flow, then `next` with its outcome, in the same transaction.
  package func then<Next: Sendable>(
    _ next: @escaping @Sendable (Output) -> TransactionFlow<Next>
  ) -> TransactionFlow<Next> {
    switch self {
    case .rows(let statement, let values, let then):
      .rows(statement, values) { rows in then(rows).then(next) }
    case .run(let statement, let values, let then):
      .run(statement, values, then: then.then(next))
    case .runEach(let statement, let values, let then):
      .runEach(statement, values, then: then.then(next))
    case .lock(let lock, let then): .lock(lock, then: then.then(next))
    case .tell(let session, let question, let change, let then):
      .tell(session: session, question: question, change, then: then.then(next))
    case .done(let output): next(output)
    case .fail(let error): .fail(error)
    }
  }
}
