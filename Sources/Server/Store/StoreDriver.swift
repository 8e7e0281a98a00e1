import Foundation
import QnA

/// One database under `QuestionStore`: SQLite through GRDB (`SQLiteDriver`, the embedded
/// default) or PostgreSQL through postgres-nio (`PostgresDriver`, for several instances). Both
/// keep the same schema, made by the same migrations, and apply `StoreRules` inside their
/// transactions; every call names the session it reads or writes. Its requirements are
/// split as the store's API is: the questions and the room here, a session's word filter and
/// labels in `ModerationDriver`. The sessions and logins are flows written once
/// (`SessionSQL`, `LoginSQL`), which any `FlowDriver` runs.
package protocol StoreDriver: FlowDriver, ModerationDriver {
  /// Migrates the schema. The store is usable after it.
  func prepare() async throws(StoreError)
  /// Throws when a question could not be stored now (`/readyz`).
  func ping() async throws(StoreError)
  /// Gives back the connections.
  func close() async

  func insert(_ question: StoredQuestion, session: Int64) async throws(StoreError) -> (
    question: StoredQuestion, inserted: Bool
  )
  func reassign(ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?, session: Int64)
    async throws(StoreError) -> [StoredQuestion]
  func existing(ids: [UUID], session: Int64) async throws(StoreError) -> Set<UUID>
  func all(session: Int64) async throws(StoreError) -> [StoredQuestion]
  func page(limit: Int, before: UUID?, byVotes: Bool, label: String?, session: Int64)
    async throws(StoreError)
    -> [StoredQuestion]
  func counts(session: Int64) async throws(StoreError) -> (total: Int, answered: Int)
  func question(token: UUID, session: Int64) async throws(StoreError) -> StoredQuestion?
  func question(id: UUID, session: Int64) async throws(StoreError) -> StoredQuestion?

  func roomEpoch(session: Int64) async throws(StoreError) -> UUID
  func currentSeq(session: Int64) async throws(StoreError) -> Int
  func join(attendee: UUID, name: String?, at time: Date, session: Int64)
    async throws(StoreError)
  /// Each claim as `StoreRules.claim` decides it, in order, all in one transaction.
  func claims(_ requests: [ClaimRequest], session: Int64) async throws(StoreError)
    -> [AttendeeClaim]
  func view(of attendee: UUID, presenter: Bool, session: Int64) async throws(StoreError)
    -> AttendeeView
  func vote(attendee: UUID, question: UUID, up: Bool, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.VoteOutcome?
  func highlighted(session: Int64) async throws(StoreError) -> UUID?
  func announcement(session: Int64) async throws(StoreError) -> Announcement?
  func nextUp(session: Int64) async throws(StoreError) -> NextUp
  func snapshot(for attendee: UUID?, presenter: Bool, session: Int64) async throws(StoreError)
    -> (
      seq: Int, questions: [RoomQuestion], highlighted: UUID?, announcement: Announcement?,
      nextUp: NextUp?, labels: [String]
    )
  func changes(after: Int, upTo: Int, presenter: Bool, session: Int64) async throws(StoreError)
    -> RoomChanges
  func export(session: Int64) async throws(StoreError) -> [ExportedQuestion]

  func perform(
    _ action: PresenterActionKind, on id: UUID, text: String?, isPrivate: Bool, token: UUID,
    at time: Date, session: Int64
  ) async throws(StoreError) -> QuestionStore.ActionOutcome?
  func transitions(of id: UUID, session: Int64) async throws(StoreError) -> [(
    action: PresenterActionKind, at: Date, text: String?
  )]

  /// The head count's rows (`QuestionStore+Presence`): one instance's changes written, then
  /// each session's distinct attendees on every instance counted, in one transaction.
  func presence(_ changes: PresenceChanges, counting sessions: [Int64])
    async throws(StoreError) -> [Int64: Int]
  func endPresence(instance: UUID) async throws(StoreError)

  /// What other instances on the same database changed, as they commit it: `nil` for a
  /// database only this process writes to.
  var roomFeed: RoomFeed? { get }
  /// The shared database's connections and notices: `nil` for SQLite.
  var health: StoreHealth? { get }
}

/// A presenter's action on the room: its flow (`RoomActionFlow`, the store's) run in one
/// transaction, under its token, with its row in the log of room actions. A token seen
/// before does nothing (refused when it named another action).
package protocol RoomActionDriver: Sendable {
  func roomAction(
    _ flow: RoomActionFlow, action: String, text: String?, token: UUID, at time: Date,
    session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome
}

/// A session's word filter and labels (`ModerationStore`).
package protocol ModerationDriver: RoomActionDriver {
  func filterSettings(session: Int64) async throws(StoreError) -> FilterSettings
  func labels(session: Int64) async throws(StoreError) -> [String]
  func changeFilterList(
    _ name: String, _ change: FilterChange, maxEntries: Int, token: UUID, at time: Date,
    session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome
}
