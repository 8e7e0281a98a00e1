import Foundation
import QnA

/// One database under `QuestionStore`: SQLite through GRDB (`SQLiteDriver`, the embedded
/// default) or PostgreSQL through postgres-nio (`PostgresDriver`, for several instances). Both
/// keep the same schema, made by the same migrations, and apply `StoreRules` inside their
/// transactions; every call names the session it reads or writes. Its requirements are
/// what is not yet a flow written once: the questions and the room. The sessions, logins,
/// tickets, word filters, labels and presenters' actions on the room are flows
/// (`TransactionFlow`, `RoomActionFlow`), which any `FlowDriver` runs.
package protocol StoreDriver: FlowDriver {
  /// Migrates the schema. The store is usable after it.
  func prepare() async throws(StoreError)
  /// Throws when a question could not be stored now (`/readyz`).
  func ping() async throws(StoreError)
  /// Gives back the connections.
  func close() async

  func page(limit: Int, before: UUID?, byVotes: Bool, label: String?, session: Int64)
    async throws(StoreError)
    -> [StoredQuestion]

  /// Each claim as `StoreRules.claim` decides it, in order, all in one transaction.
  func claims(_ requests: [ClaimRequest], session: Int64) async throws(StoreError)
    -> [AttendeeClaim]
  func view(of attendee: UUID, presenter: Bool, session: Int64) async throws(StoreError)
    -> AttendeeView
  func vote(attendee: UUID, question: UUID, up: Bool, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.VoteOutcome?
  func snapshot(for attendee: UUID?, presenter: Bool, session: Int64) async throws(StoreError)
    -> (
      seq: Int, questions: [RoomQuestion], highlighted: UUID?, announcement: Announcement?,
      nextUp: NextUp?, labels: [String]
    )
  func changes(after: Int, upTo: Int, presenter: Bool, session: Int64) async throws(StoreError)
    -> RoomChanges
  func export(session: Int64) async throws(StoreError) -> [ExportedQuestion]

  /// What other instances on the same database changed, as they commit it: `nil` for a
  /// database only this process writes to.
  var roomFeed: RoomFeed? { get }
  /// The shared database's connections and notices: `nil` for SQLite.
  var health: StoreHealth? { get }
}
