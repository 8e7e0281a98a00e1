import Foundation
import GRDB
import QnA

/// The room's side of the store: attendees, votes, the question being answered, and the log
/// of what changed, whose sequence numbers attendees catch up from. Each change and its log
/// row commit together, so no attendee can see one without the other.
extension QuestionStore {
  enum Change: String {
    case added, answered, votes, highlight, removed, state
  }

  /// One log for every session, numbered in one sequence: a session's numbers increase but
  /// skip the other sessions' (clients only ever compare them).
  static func logChange(_ db: Database, _ session: Int64, _ question: UUID?, _ kind: Change)
    throws
  {
    try db.execute(
      sql: "INSERT INTO roomLog (session, question, kind) VALUES (?, ?, ?)",
      arguments: [session, question?.uuidString, kind.rawValue])
  }

  /// The session's last sequence number (0 for a room where nothing happened yet).
  static func currentSeq(_ db: Database, _ session: Int64) throws -> Int {
    try Int.fetchOne(
      db, sql: "SELECT COALESCE(MAX(seq), 0) FROM roomLog WHERE session = ?",
      arguments: [session]) ?? 0
  }

  /// This session's room, as opposed to another's whose numbers happen to match.
  public func roomEpoch() async throws(StoreError) -> UUID {
    try await read { [session] db in
      let value = try String.fetchOne(
        db, sql: "SELECT value FROM roomState WHERE session = ? AND key = 'epoch'",
        arguments: [session])
      return value.flatMap(UUID.init(uuidString:)) ?? UUID()
    }
  }

  public func currentSeq() async throws(StoreError) -> Int {
    try await read { [session] db in try Self.currentSeq(db, session) }
  }

  /// Records the attendee (and its name, which may change) in this session.
  public func join(attendee: UUID, name: String?, at time: Date) async throws(StoreError) {
    try await run { [session] db in
      try Self.requireExists(db, session)
      try db.execute(
        sql: """
          INSERT INTO attendee (session, id, name, firstSeen) VALUES (?, ?, ?, ?)
          ON CONFLICT(session, id) DO UPDATE SET name = excluded.name
          """,
        arguments: [session, attendee.uuidString, name, time.timeIntervalSinceReferenceDate])
    }
  }

  public struct VoteOutcome: Sendable {
    public var voted: Bool
    public var votes: Int
    /// The room's sequence number this count is as of.
    public var seq: Int
    /// Why it was refused, when it was.
    public var refusal: String?
  }

  /// One vote per attendee per question, in one transaction: sending it again changes
  /// nothing. No vote for one's own question, nor for an answered one (taking one back is
  /// always allowed). `nil`: no such question.
  public func vote(attendee: UUID, question: UUID, up: Bool, at time: Date)
    async throws(StoreError) -> VoteOutcome?
  {
    try await run { [session] db in
      // A question in review or dismissed is, to a voter, no question at all.
      guard var record = try self.record(db, question),
        record.state == QuestionState.live.rawValue
      else {
        return nil
      }
      let key = [attendee.uuidString, question.uuidString]
      let existing =
        try Bool.fetchOne(
          db, sql: "SELECT 1 FROM vote WHERE attendee = ? AND question = ?",
          arguments: StatementArguments(key)) ?? false
      if up, !existing {
        if record.attendee == attendee.uuidString {
          return VoteOutcome(
            voted: false, votes: record.votes, seq: try Self.currentSeq(db, session),
            refusal: "That question is yours: votes are for the others' questions.")
        }
        if record.answered {
          return VoteOutcome(
            voted: false, votes: record.votes, seq: try Self.currentSeq(db, session),
            refusal: "That question has been answered.")
        }
        try db.execute(
          sql: "INSERT INTO vote (attendee, question, createdAt) VALUES (?, ?, ?)",
          arguments: [
            attendee.uuidString, question.uuidString, time.timeIntervalSinceReferenceDate,
          ])
        record.votes += 1
      } else if !up, existing {
        try db.execute(
          sql: "DELETE FROM vote WHERE attendee = ? AND question = ?",
          arguments: StatementArguments(key))
        record.votes -= 1
      } else {
        return VoteOutcome(
          voted: existing, votes: record.votes, seq: try Self.currentSeq(db, session))
      }
      try record.update(db)
      try Self.logChange(db, session, question, .votes)
      return VoteOutcome(voted: up, votes: record.votes, seq: Int(db.lastInsertedRowID))
    }
  }

  /// The question being answered now.
  public func highlighted() async throws(StoreError) -> UUID? {
    try await read { [session] db in try Self.highlighted(db, session) }
  }

  static func highlighted(_ db: Database, _ session: Int64) throws -> UUID? {
    try String.fetchOne(
      db, sql: "SELECT value FROM roomState WHERE session = ? AND key = 'highlighted'",
      arguments: [session]
    ).flatMap(UUID.init(uuidString:))
  }

  /// The whole room for one attendee as of the log's last sequence number: every question,
  /// whether the attendee asked it and voted for it, and the question being answered.
  /// An attendee sees the questions in review or dismissed that they asked, and no others; a
  /// presenter sees every question, with its asker's name.
  public func snapshot(for attendee: UUID, presenter: Bool = false) async throws(StoreError)
    -> (seq: Int, questions: [RoomQuestion], highlighted: UUID?)
  {
    try await read { [session, questions] db in
      let seq = try Self.currentSeq(db, session)
      let voted = try Set(
        String.fetchAll(
          db, sql: "SELECT question FROM vote WHERE attendee = ?",
          arguments: [attendee.uuidString]))
      let names = presenter ? try Self.names(db, session) : [:]
      let records = try questions.order(Column("createdAt"), Column("rowid")).fetchAll(db)
      let questions = records.compactMap { record -> RoomQuestion? in
        let stored = record.question
        let mine = stored.attendee == attendee
        guard presenter || mine || stored.publicState.isPublic else { return nil }
        var question = stored.roomQuestion(presenter: presenter, asker: mine, names: names)
        question.mine = mine
        question.voted = voted.contains(record.id)
        return question
      }
      return (seq, questions, try Self.highlighted(db, session))
    }
  }

  /// Attendees' display names by id, for presenters: of `askers` only when given (a delta's
  /// few questions need not read every attendee of a busy room, ten times a second).
  static func names(_ db: Database, _ session: Int64, of askers: [StoredQuestion]? = nil) throws
    -> [UUID: String]
  {
    var sql = "SELECT id, name FROM attendee WHERE session = ? AND name IS NOT NULL"
    var arguments: [String] = []
    if let askers {
      arguments = Array(Set(askers.compactMap { $0.attendee?.uuidString }))
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

  /// What changed after sequence `after`, up to `upTo`: the current state of each question
  /// that changed (the same for every attendee), and the question being answered if that
  /// changed. The log is one sequence for every session and is never pruned, so it always
  /// reaches back to `after`.
  /// Attendees' deltas leave out questions in review, name dismissed ones as `removed` (their
  /// askers keep them, marked so) and carry only public answers; presenters' carry all.
  public func changes(after: Int, upTo: Int, presenter: Bool = false) async throws(StoreError)
    -> RoomDelta
  {
    try await read { [session, questions] db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT seq, question, kind FROM roomLog
          WHERE session = ? AND seq > ? AND seq <= ? ORDER BY seq
          """,
        arguments: [session, after, upTo])
      var changed: [String] = []
      var seen: Set<String> = []
      var highlightChanged = false
      for row in rows {
        let kind: String = row["kind"]
        if kind == Change.highlight.rawValue {
          highlightChanged = true
        } else if let id: String = row["question"], seen.insert(id).inserted {
          changed.append(id)
        }
      }
      let changedRows = try questions.filter(keys: changed).fetchAll(db)
      let records = changedRows.map(\.question)
      let found = Set(records.map(\.id.uuidString))
      let names = presenter ? try Self.names(db, session, of: records) : [:]
      let shown = records.filter { presenter || $0.publicState.isPublic }
      // Removed for attendees: a dismissed question the room once saw, never one it did not.
      let dismissed =
        presenter
        ? []
        : changedRows.filter { $0.published && $0.state == QuestionState.dismissed.rawValue }
          .compactMap { UUID(uuidString: $0.id) }
      return RoomDelta(
        from: after + 1, to: upTo,
        questions: shown.map { $0.roomQuestion(presenter: presenter, asker: false, names: names) }
          .sorted { $0.createdAt < $1.createdAt },
        removed: (changed.filter { !found.contains($0) }.compactMap(UUID.init(uuidString:))
          + dismissed).nilIfEmpty,
        highlight: highlightChanged ? HighlightChange(id: try Self.highlighted(db, session)) : nil)
    }
  }
}

extension StoredQuestion {
  /// As the room shows it: content, votes and state, nothing about who asked (presenters
  /// get the asker's name); a private answer for its asker and presenters only.
  func roomQuestion(presenter: Bool, asker: Bool, names: [UUID: String] = [:]) -> RoomQuestion {
    let answerShown = presenter || asker || !answerPrivate
    return RoomQuestion(
      id: id, content: content, votes: votes, answered: answered, createdAt: createdAt,
      state: publicState, answer: answerShown ? answer : nil,
      isPrivate: answerShown && answer != nil && answerPrivate ? true : nil,
      name: presenter ? attendee.flatMap { names[$0] } : nil)
  }
}

extension Array {
  var nilIfEmpty: Self? { isEmpty ? nil : self }
}

extension QuestionStore {
  /// Mock: many questions at once, each from an attendee of its own, in one transaction.
  public func seed(_ questions: [StoredQuestion]) async throws(StoreError) {
    try await run { [session] db in
      for question in questions {
        var record = QuestionRecord(question)
        record.session = session
        try record.insert(db)
        try Self.logChange(db, session, question.id, .added)
      }
    }
  }

  /// Mock: `count` votes for `question` from attendees who never voted before, in one
  /// transaction. `nil`: no such question.
  public func simulateVotes(
    for question: UUID, count: Int, at time: Date, makeID: @escaping @Sendable () -> UUID
  ) async throws(StoreError) -> Int? {
    try await run { [session] db in
      guard var record = try self.record(db, question) else { return nil }
      for _ in 0..<count {
        try db.execute(
          sql: "INSERT INTO vote (attendee, question, createdAt) VALUES (?, ?, ?)",
          arguments: [
            makeID().uuidString, question.uuidString, time.timeIntervalSinceReferenceDate,
          ])
      }
      record.votes += count
      try record.update(db)
      try Self.logChange(db, session, question, .votes)
      return record.votes
    }
  }
}
