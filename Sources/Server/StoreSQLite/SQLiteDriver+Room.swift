import Foundation
import GRDB
import QnA
import QnAStore

/// The room in SQLite: each change and its log row in one transaction.
extension SQLiteDriver {
  package static func logChange(
    _ db: Database, _ session: Int64, _ question: UUID?, _ kind: RoomChange
  )
    throws
  {
    try db.cachedStatement(sql: "INSERT INTO roomLog (session, question, kind) VALUES (?, ?, ?)")
      .execute(arguments: [session, question?.uuidString, kind.rawValue])
  }

  package static func currentSeq(_ db: Database, _ session: Int64) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT COALESCE(MAX(seq), 0) FROM roomLog WHERE session = ?",
      arguments: [session]) ?? 0
  }

  package func claims(_ requests: [ClaimRequest], session: Int64) async throws(StoreError)
    -> [AttendeeClaim]
  {
    try await run { db in
      try Self.requireExists(db, session)
      return try requests.map { try Self.claim($0, db, session) }
    }
  }

  private static func claim(_ request: ClaimRequest, _ db: Database, _ session: Int64) throws
    -> AttendeeClaim
  {
    let (attendee, name) = (request.attendee, request.name)
    let row = try Row.fetchOne(
      db,
      sql: "SELECT credential, credentialProved FROM attendee WHERE session = ? AND id = ?",
      arguments: [session, attendee.uuidString])
    let stored = row.map {
      StoredCredential(value: $0["credential"], proved: $0["credentialProved"])
    }
    let claim = StoreRules.claim(stored: stored, offered: request.credential, mint: request.mint)
    switch claim {
    case .taken, .needsMint: break
    case .proved:
      // A reconnect with nothing new changes no row: its transaction writes nothing.
      try db.execute(
        sql: """
          UPDATE attendee SET name = ?, credentialProved = 1
          WHERE session = ? AND id = ? AND (name IS NOT ? OR credentialProved = 0)
          """,
        arguments: [name, session, attendee.uuidString, name])
    case .issued(let credential):
      // The credential already stored stays (`StoreRules.claim` issues it again).
      let kept = try String.fetchAll(
        db,
        sql: """
          INSERT INTO attendee (session, id, name, firstSeen, credential) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT(session, id) DO UPDATE SET name = excluded.name,
            credential = COALESCE(attendee.credential, excluded.credential)
          WHERE attendee.credentialProved = 0
          RETURNING credential
          """,
        arguments: [
          session, attendee.uuidString, name, request.time.timeIntervalSinceReferenceDate,
          credential.uuidString,
        ])
      return kept.first.flatMap(UUID.init(uuidString:)).map(AttendeeClaim.issued) ?? .taken
    }
    return claim
  }

  package func view(of attendee: UUID, presenter: Bool, session: Int64) async throws(StoreError)
    -> AttendeeView
  {
    try await read { db in
      let voted = try Set(
        String.fetchAll(
          db, sql: "SELECT question FROM vote WHERE attendee = ?",
          arguments: [attendee.uuidString]))
      let records = try Self.questions(session).filter(Column("attendee") == attendee.uuidString)
        .order(Column("createdAt"), Column("rowid")).fetchAll(db)
      let names = presenter ? try Self.names(db, session, of: records) : [:]
      return AttendeeView(
        own: StoreRules.room(
          records, for: attendee, voted: voted, names: names, presenter: presenter),
        voted: Set(voted.compactMap(UUID.init(uuidString:))))
    }
  }

  package func vote(attendee: UUID, question: UUID, up: Bool, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.VoteOutcome?
  {
    try await run { db in
      // A question in review or dismissed is, to a voter, no question at all.
      // Votes come by the thousand a second: their statements are prepared once
      // (`cachedStatement`), not built and parsed for every vote.
      guard
        var record = try QuestionRecord.fetchOne(
          db.cachedStatement(sql: "SELECT *, rowid FROM question WHERE id = ? AND session = ?"),
          arguments: [question.uuidString, session]),
        record.state == QuestionState.live.rawValue
      else {
        return nil
      }
      let key = [attendee.uuidString, question.uuidString]
      let existing =
        try Bool.fetchOne(
          db.cachedStatement(sql: VoteSQL.counted.sqlite), arguments: StatementArguments(key))
        ?? false
      switch StoreRules.vote(on: record, by: attendee, up: up, existing: existing) {
      case .refuse(let reason):
        return QuestionStore.VoteOutcome(
          voted: false, votes: record.votes, seq: try Self.currentSeq(db, session),
          refusal: reason)
      case .unchanged:
        return QuestionStore.VoteOutcome(
          voted: existing, votes: record.votes, seq: try Self.currentSeq(db, session))
      case .add:
        try db.cachedStatement(sql: VoteSQL.add.sqlite).execute(arguments: [
          attendee.uuidString, question.uuidString, time.timeIntervalSinceReferenceDate,
        ])
        record.votes += 1
      case .remove:
        try db.cachedStatement(sql: VoteSQL.remove.sqlite)
          .execute(arguments: StatementArguments(key))
        record.votes -= 1
      }
      try db.cachedStatement(sql: VoteSQL.setCount.sqlite)
        .execute(arguments: [record.votes, record.id])
      try Self.logChange(db, session, question, .votes)
      return QuestionStore.VoteOutcome(
        voted: up, votes: record.votes, seq: Int(db.lastInsertedRowID))
    }
  }

  package static func highlighted(_ db: Database, _ session: Int64) throws -> UUID? {
    try roomStateValue(db, session, "highlighted").flatMap(UUID.init(uuidString:))
  }

  package func snapshot(for attendee: UUID?, presenter: Bool, session: Int64)
    async throws(StoreError)
    -> (
      seq: Int, questions: [RoomQuestion], highlighted: UUID?, announcement: Announcement?,
      nextUp: NextUp?, labels: [String]
    )
  {
    try await read { db in
      let seq = try Self.currentSeq(db, session)
      let voted =
        try attendee.map { attendee in
          try Set(
            String.fetchAll(
              db, sql: "SELECT question FROM vote WHERE attendee = ?",
              arguments: [attendee.uuidString]))
        } ?? []
      let names = presenter ? try Self.names(db, session) : [:]
      let records = try Self.questions(session).order(Column("createdAt"), Column("rowid"))
        .fetchAll(db)
      let questions = StoreRules.room(
        records, for: attendee, voted: voted, names: names, presenter: presenter)
      let nextUp = try Self.nextUp(db, session, presenter: presenter)
      return (
        seq, questions, try Self.highlighted(db, session), try Self.announcement(db, session),
        nextUp.ids.isEmpty && !nextUp.shown ? nil : nextUp,
        try Self.labels(db, session)
      )
    }
  }

  /// Attendees' display names by id, for presenters: of `askers` only when given (a delta's
  /// few questions need not read every attendee of a busy room, ten times a second).
  package static func names(_ db: Database, _ session: Int64, of askers: [QuestionRecord]? = nil)
    throws
    -> [UUID: String]
  {
    var sql = "SELECT id, name FROM attendee WHERE session = ? AND name IS NOT NULL"
    var arguments: [String] = []
    if let askers {
      arguments = Array(Set(askers.compactMap(\.attendee)))
      guard !arguments.isEmpty else { return [:] }
      sql += " AND id IN (\(arguments.map { _ in "?" }.joined(separator: ",")))"
    }
    var names: [UUID: String] = [:]
    let bound = StatementArguments([session]) + StatementArguments(arguments)
    for row in try Row.fetchAll(db, sql: sql, arguments: bound) {
      if let id = UUID(uuidString: row["id"]) { names[id] = row["name"] }
    }
    return names
  }

  package func changes(after: Int, upTo: Int, presenter: Bool, session: Int64)
    async throws(StoreError)
    -> RoomChanges
  {
    try await read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT question, kind FROM roomLog
          WHERE session = ? AND seq > ? AND seq <= ? ORDER BY seq
          """,
        arguments: [session, after, upTo])
      let changed = StoreRules.changed(in: rows.map { ($0["question"], $0["kind"]) })
      let records = try Self.questions(session).filter(keys: changed.ids).fetchAll(db)
      return StoreRules.delta(
        after: after, upTo: upTo, named: changed.ids, countsOnly: changed.countsOnly,
        rows: records,
        names: presenter ? try Self.names(db, session, of: records) : [:],
        highlight: changed.highlight
          ? HighlightChange(id: try Self.highlighted(db, session)) : nil,
        announcement: changed.announcement
          ? (try Self.announcement(db, session) ?? Announcement()) : nil,
        nextUp: changed.queue ? try Self.nextUp(db, session, presenter: presenter) : nil,
        labels: changed.labels
          ? try Self.labels(db, session) : nil,
        presenter: presenter)
    }
  }

  package func export(session: Int64) async throws(StoreError) -> [ExportedQuestion] {
    try await read { db in
      let names = try Self.names(db, session)
      return try Self.questions(session).order(Column("createdAt"), Column("rowid")).fetchAll(db)
        .map {
          let question = $0.question
          return ExportedQuestion(
            question: question, name: question.attendee.flatMap { names[$0] })
        }
    }
  }
}
