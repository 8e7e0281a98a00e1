import Foundation
import GRDB
import QnA
import QnAStore

/// The presenters' actions on the room in SQLite: each in one transaction with its log row
/// and its token.
extension SQLiteDriver {
  /// Migration "v7: toolkit": the log of actions on the room (their tokens make them
  /// exactly-once), the sessions' word filters, and what a question's text matched in them.
  static func addToolkit(_ db: Database) throws {
    try db.alter(table: QuestionRecord.databaseTableName) { table in
      table.add(column: "flagged", .text)
      table.add(column: "original", .text)
      table.add(column: "starred", .boolean).notNull().defaults(to: false)
    }
    try db.create(table: "silenced") { table in
      table.column("session", .integer).notNull()
      table.column("attendee", .text).notNull()
      table.column("at", .double).notNull()
      table.primaryKey(["session", "attendee"])
    }
    try db.create(table: "filterWord") { table in
      table.column("session", .integer).notNull()
      table.column("list", .text).notNull()
      table.column("entry", .text).notNull()
      table.primaryKey(["session", "list", "entry"])
    }
    try db.create(table: "roomAction") { table in
      table.primaryKey("token", .text)
      table.column("session", .integer).notNull()
      table.column("action", .text).notNull()
      table.column("at", .double).notNull()
      table.column("text", .text)
    }
    try db.create(index: "roomAction_session", on: "roomAction", columns: ["session", "at"])
  }

  package static func announcement(_ db: Database, _ session: Int64) throws -> Announcement? {
    StoreRules.announcement(from: try roomStateValue(db, session, "announcement"))
  }

  static func roomStateValue(_ db: Database, _ session: Int64, _ key: String) throws -> String? {
    try String.fetchOne(
      db.cachedStatement(sql: RoomStateSQL.value.sqlite), arguments: [session, key])
  }

  static func setRoomState(_ db: Database, _ session: Int64, _ key: String, _ value: String?)
    throws
  {
    try db.cachedStatement(sql: RoomStateSQL.set.sqlite).execute(arguments: [session, key, value])
  }

  package func announcement(session: Int64) async throws(StoreError) -> Announcement? {
    try await read { db in try Self.announcement(db, session) }
  }

}

/// The sessions' word filters in SQLite.
extension SQLiteDriver {
  package func filterSettings(session: Int64) async throws(StoreError) -> FilterSettings {
    try await read { db in
      var lists: [String: [String]] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT list, entry FROM filterWord WHERE session = ? ORDER BY list, entry",
        arguments: [session])
      {
        lists[row["list"], default: []].append(row["entry"])
      }
      let mode = try Self.roomStateValue(db, session, "filterMode")
        .flatMap(FilterMode.init(rawValue:))
      let silenced = try String.fetchAll(
        db, sql: "SELECT attendee FROM silenced WHERE session = ?", arguments: [session])
      return FilterSettings(
        lists: lists, mode: mode ?? .review,
        silenced: Set(silenced.compactMap(UUID.init(uuidString:))))
    }
  }

  package func changeFilterList(
    _ name: String, _ change: FilterChange, maxEntries: Int, token: UUID, at time: Date,
    session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    let (action, text) = StoreRules.filterListAction(name, change)
    return try await roomAction(action, text: text, token: token, at: time, session: session) {
      db in
      let own = try String.fetchAll(
        db, sql: "SELECT entry FROM filterWord WHERE session = ? AND list = ?",
        arguments: [session, name])
      let others = try Row.fetchOne(
        db,
        sql: """
          SELECT COUNT(*) AS entries, COUNT(DISTINCT list) AS lists FROM filterWord
          WHERE session = ? AND list <> ?
          """, arguments: [session, name])
      if let refusal = StoreRules.filterListRefusal(
        entries: StoreRules.entriesAfter(change, own: own), otherEntries: others?["entries"] ?? 0,
        otherLists: others?["lists"] ?? 0, maxEntries: maxEntries)
      {
        return .refused(refusal)
      }
      if change.replacing {
        try db.execute(
          sql: "DELETE FROM filterWord WHERE session = ? AND list = ?", arguments: [session, name])
      }
      let remove = try db.cachedStatement(
        sql: "DELETE FROM filterWord WHERE session = ? AND list = ? AND entry = ?")
      for entry in change.removing { try remove.execute(arguments: [session, name, entry]) }
      let insert = try db.cachedStatement(
        sql: "INSERT OR IGNORE INTO filterWord (session, list, entry) VALUES (?, ?, ?)")
      for entry in change.adding { try insert.execute(arguments: [session, name, entry]) }
      return .done(changed: true)
    }
  }

  /// Runs a room action's flow (the store's `RoomActionFlow`) in one transaction.
  package func roomAction(
    _ flow: RoomActionFlow, action: String, text: String?, token: UUID, at time: Date,
    session: Int64
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    try await roomAction(action, text: text, token: token, at: time, session: session) { db in
      var step = flow
      while true {
        switch step {
        case .read(let keys, let then):
          step = then(try keys.map { try Self.roomStateValue(db, session, $0) })
        case .openQuestions(let ids, let then):
          step = then(try Self.openQuestions(ids, db, session))
        case .unchanged: return .done(changed: false)
        case .refused(let reason): return .refused(reason)
        case .write(let writes):
          for write in writes {
            switch write {
            case .state(let key, let value): try Self.setRoomState(db, session, key, value)
            case .log(let question, let kind): try Self.logChange(db, session, question, kind)
            // No other instance shares an SQLite file.
            case .tellOthers: break
            }
          }
          return .done(changed: true)
        }
      }
    }
  }

  /// Which of these questions are live and unanswered.
  static func openQuestions(_ ids: [UUID], _ db: Database, _ session: Int64) throws -> Set<UUID> {
    Set(
      try Self.questions(session).filter(keys: ids.map(\.uuidString)).fetchAll(db)
        .filter { $0.state == QuestionState.live.rawValue && !$0.answered }
        .compactMap { UUID(uuidString: $0.id) })
  }

  /// A room action under its token, in one transaction: a token seen before does nothing
  /// (refused when it named another action); `body` makes the change, or says why not.
  func roomAction(
    _ action: String, text: String?, token: UUID, at time: Date, session: Int64,
    _ body: @escaping @Sendable (Database) throws -> RoomActionStep
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    try await run { db in
      try Self.requireExists(db, session)
      if let seen = try Row.fetchOne(
        db, sql: "SELECT action, text FROM roomAction WHERE token = ?",
        arguments: [token.uuidString])
      {
        return QuestionStore.RoomActionOutcome(
          changed: false,
          refusal: StoreRules.repeatRefusal(
            seenAction: seen["action"], seenText: seen["text"], action: action, text: text))
      }
      // A token names one action, whichever table keeps it.
      if try Bool.fetchOne(
        db, sql: "SELECT 1 FROM transition WHERE token = ?", arguments: [token.uuidString])
        != nil
      {
        return QuestionStore.RoomActionOutcome(
          changed: false, refusal: "That token was used for another action.")
      }
      let changed: Bool
      switch try body(db) {
      case .refused(let refusal):
        return QuestionStore.RoomActionOutcome(changed: false, refusal: refusal)
      case .done(let done): changed = done
      }
      try db.execute(
        sql: "INSERT INTO roomAction (token, session, action, at, text) VALUES (?, ?, ?, ?, ?)",
        arguments: [
          token.uuidString, session, action, time.timeIntervalSinceReferenceDate, text,
        ])
      return QuestionStore.RoomActionOutcome(changed: changed)
    }
  }
}

/// The "next up" queue in SQLite (extension `queue`); its actions are `RoomActionFlow.queue`.
extension SQLiteDriver {
  package func nextUp(session: Int64) async throws(StoreError) -> NextUp {
    try await read { db in try Self.nextUp(db, session, presenter: true) }
  }
}
