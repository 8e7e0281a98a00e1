import Foundation
import QnA

/// One database under `QuestionStore`: SQLite through GRDB (`SQLiteDriver`, the embedded
/// default) or PostgreSQL through postgres-nio (`PostgresDriver`, for several instances). Both
/// keep the same schema, made by the same migrations. What the store reads and writes is
/// written once, as flows (`TransactionFlow`, `RoomActionFlow`) that any `FlowDriver` runs
/// in a transaction of its own kind; a driver's requirements here are only what is its own:
/// its schema, its connections, and what other instances tell it.
package protocol StoreDriver: FlowDriver {
  /// Migrates the schema. The store is usable after it.
  func prepare() async throws(StoreError)
  /// Throws when a question could not be stored now (`/readyz`).
  func ping() async throws(StoreError)
  /// Gives back the connections.
  func close() async

  /// What other instances on the same database changed, as they commit it: `nil` for a
  /// database only this process writes to.
  var roomFeed: RoomFeed? { get }
  /// The shared database's connections and notices: `nil` for SQLite.
  var health: StoreHealth? { get }
}
