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
      db, sql: "SELECT value FROM roomState WHERE session = ? AND key = ?",
      arguments: [session, key])
  }

  package func announcement(session: Int64) async throws(StoreError) -> Announcement? {
    try await read { db in try Self.announcement(db, session) }
  }

  package func announce(_ text: String?, token: UUID, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    try await run { db in
      try Self.requireExists(db, session)
      if let seen = try Row.fetchOne(
        db, sql: "SELECT action, text FROM roomAction WHERE token = ?",
        arguments: [token.uuidString])
      {
        return QuestionStore.RoomActionOutcome(
          changed: false,
          refusal: StoreRules.repeatRefusal(
            seenAction: seen["action"], seenText: seen["text"], action: .announce, text: text))
      }
      let step = StoreRules.announce(
        text, over: try Self.roomStateValue(db, session, "announcement"), at: time)
      if case .some(let value) = step {
        try db.execute(
          sql: """
            INSERT OR REPLACE INTO roomState (session, key, value) VALUES (?, 'announcement', ?)
            """, arguments: [session, value])
        try Self.logChange(db, session, nil, .announcement)
      }
      try db.execute(
        sql: "INSERT INTO roomAction (token, session, action, at, text) VALUES (?, ?, ?, ?, ?)",
        arguments: [
          token.uuidString, session, PresenterActionKind.announce.rawValue,
          time.timeIntervalSinceReferenceDate, text,
        ])
      return QuestionStore.RoomActionOutcome(changed: step != .none)
    }
  }
}
