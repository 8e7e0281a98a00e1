import Foundation
import Logging
import PostgresNIO
import QnAStore
import QnAStorePostgres
import TestSupport
import Testing

/// A write whose caller gave up while its link was stalled: the caller closes the connection,
/// but its FIN waits in the stalled link, so PostgreSQL still sees a client in a transaction,
/// holding the session's lock. Unless PostgreSQL ends such a transaction itself, every later
/// write of the session, from every instance, waits on that lock and fails.
@Suite("PostgreSQL: a transaction its caller abandoned", .serialized)
struct AbandonedTransactionTests {
  @Test func anAbandonedTransactionLetsGoOfItsSessionsLock() async throws {
    let postgres = try PostgresProcess()
    let url = try postgres.database()
    let proxy = try FaultProxy(target: postgres.port)
    defer { proxy.stop() }
    let logger = Logger(label: "abandoned-transaction-test")
    // Through the stalling link: a 2 s call limit, so that the test waits 2 s rather than 10
    // for the caller to give up. The other instance keeps the default limit (10 s).
    var short = StoreOptions()
    short.callLimit = .seconds(2)
    let stalled = try PostgresDriver(
      url: PostgresURL(url.replacingOccurrences(of: ":\(postgres.port)/", with: ":\(proxy.port)/")),
      options: short, logger: logger)
    let direct = try PostgresDriver(url: PostgresURL(url), logger: logger)
    defer {
      Task {
        await stalled.close()
        await direct.close()
      }
    }
    try await direct.prepare()
    let session: Int64 = 7

    // The lock is taken, then the link stalls under the body's query: the caller gives up.
    let abandoned: Result<Void, StoreError>
    do {
      try await stalled.transaction(locking: session) { connection in
        proxy.set(.stall)
        try await connection.query("SELECT 1", logger: logger)
      }
      abandoned = .success(())
    } catch {
      abandoned = .failure(error)
    }
    #expect(throws: StoreError.self) { try abandoned.get() }

    // The link stays stalled: the other instance's write must still get the lock.
    let started = ContinuousClock.now
    let written = try await direct.transaction(locking: session) { connection in
      try await connection.query("SELECT 1", logger: logger)
      return true
    }
    let waited = ContinuousClock.now - started
    proxy.set(.none)
    #expect(written)
    print("abandoned transaction: the next write of its session waited \(waited)")
  }
}
