import Foundation
import QnA

/// One database under `QuestionStore`: SQLite through GRDB (`SQLiteDriver`, the embedded
/// default) or PostgreSQL through postgres-nio (`PostgresDriver`, for several instances). Both
/// keep the same schema, made by the same migrations, and apply `StoreRules` inside their
/// transactions; every call names the session it reads or writes.
package protocol StoreDriver: Sendable {
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
  func filterSettings(session: Int64) async throws(StoreError) -> FilterSettings
  func queueAction(_ kind: PresenterActionKind, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  func nextUp(session: Int64) async throws(StoreError) -> NextUp
  func labels(session: Int64) async throws(StoreError) -> [String]
  func changeLabels(
    _ kind: PresenterActionKind, _ name: String, token: UUID, at time: Date, session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome
  func changeFilterList(
    _ name: String, _ change: FilterChange, maxEntries: Int, token: UUID, at time: Date,
    session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome
  func setFilterMode(_ mode: FilterMode, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  func announce(_ text: String?, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
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

  /// Stores a new session with its room's epoch; `nil` when another has this code.
  func insertSession(_ record: SessionRecord, epoch: UUID) async throws(StoreError)
    -> SessionRecord?
  func session(code: String) async throws(StoreError) -> SessionRecord?
  func session(requestToken: String) async throws(StoreError) -> SessionRecord?
  func sessions() async throws(StoreError) -> [SessionSummary]
  func setSession(code: String, open: Bool) async throws(StoreError) -> SessionRecord?
  func deleteSession(code: String) async throws(StoreError) -> SessionRecord?

  /// Presenters' logins (`scope` -1 for the admin's; `credential`: the digest of the token
  /// that made it) and wrong guesses, shared by the instances on the database
  /// (`QuestionStore+Logins`). Times are seconds since 1970.
  func addLogin(
    digest: String, scope: Int64, credential: String, expiresAt: Double, now: Double,
    perScope: Int, total: Int
  ) async throws(StoreError)
  func login(digest: String, now: Double) async throws(StoreError) -> (
    scope: Int64, credential: String
  )?
  func endLogin(digest: String) async throws(StoreError)
  /// Ends every login of `scope` (every login at all with `nil`); returns how many were live.
  func endLogins(scope: Int64?, now: Double) async throws(StoreError) -> Int
  /// Gives the session with this code a new presenter token and ends its logins, in one
  /// transaction that tells the other instances as a session's close does; `nil` if there is
  /// no such session.
  func rotateToken(code: String, token: String, now: Double) async throws(StoreError) -> (
    session: SessionRecord, endedLogins: Int
  )?
  /// Counts a wrong guess under `key` (a key last seen before `forgetBefore` starts from
  /// nothing) and returns its turn: the later of now and the key's next turn, which moves
  /// on by `spacing(failures)` seconds.
  func wrongGuess(
    key: String, now: Double, forgetBefore: Double,
    spacing: @escaping @Sendable (Int) -> Double
  ) async throws(StoreError) -> Double
  func forgetGuesses(key: String) async throws(StoreError)

  /// The head count's rows (`QuestionStore+Presence`): one instance's changes written, then
  /// each session's distinct attendees on every instance counted, in one transaction.
  func presence(_ changes: PresenceChanges, counting sessions: [Int64])
    async throws(StoreError) -> [Int64: Int]
  func endPresence(instance: UUID) async throws(StoreError)

  /// Extension `tickets` (`QuestionStore+Tickets`): adds the tickets' digests unless the
  /// session would then hold more than `limit` (false, and none added).
  func addTickets(_ digests: [String], at time: Double, limit: Int, session: Int64)
    async throws(StoreError) -> Bool
  func hasTickets(session: Int64) async throws(StoreError) -> Bool
  func ticketCounts(session: Int64) async throws(StoreError) -> (issued: Int, used: Int)
  func ticket(_ digest: String, session: Int64) async throws(StoreError) -> TicketState
  /// Binds the ticket to `attendee` if it is unused, in one transaction; what it holds after.
  func bindTicket(_ digest: String, to attendee: UUID, session: Int64)
    async throws(StoreError) -> TicketState

  /// What other instances on the same database changed, as they commit it: `nil` for a
  /// database only this process writes to.
  var roomFeed: RoomFeed? { get }
  /// The shared database's connections and notices: `nil` for SQLite.
  var health: StoreHealth? { get }
}
