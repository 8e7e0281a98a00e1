import Foundation
import PostgresNIO
import QnA
import QnAStore

/// The room in PostgreSQL: each change and its log row in one transaction, under the
/// session's lock, announced at commit.
extension PostgresDriver {
  package static func currentSeq(_ connection: PostgresConnection, _ session: Int64, logger: Logger)
    async throws -> Int
  {
    try await int(
      connection.query(
        "SELECT COALESCE(MAX(seq), 0) FROM roomLog WHERE session = \(session)", logger: logger)
    ) ?? 0
  }

  package static func roomState(
    _ connection: PostgresConnection, _ session: Int64, _ key: String, logger: Logger
  ) async throws -> String? {
    for try await value in try await connection.query(
      bound(RoomStateSQL.value, [.integer(session), .text(key)]), logger: logger
    ).decode(String?.self) {
      return value
    }
    return nil
  }

  package func claims(_ requests: [ClaimRequest], session: Int64) async throws(StoreError)
    -> [AttendeeClaim]
  {
    // As `join`: no turn on the session's lock. Two claims of one id at once: the row's lock
    // orders them (a new row: the insert's conflict does), and a proved credential is never
    // replaced. A batch of claims is one transaction (`ClaimBatcher`).
    try await transaction(locking: nil) { [logger] connection in
      try await Self.requireExists(connection, session, logger: logger)
      var claims: [AttendeeClaim] = []
      for request in requests {
        claims.append(
          try await Self.claim(request, connection, session: session, logger: logger))
      }
      return claims
    }
  }

  private static func claim(
    _ request: ClaimRequest, _ connection: PostgresConnection, session: Int64, logger: Logger
  ) async throws -> AttendeeClaim {
    let (attendee, offered, mint, name, time) = (
      request.attendee, request.credential, request.mint, request.name, request.time
    )
    var stored: StoredCredential?
    for try await (credential, proved) in try await connection.query(
      """
      SELECT credential, credentialProved FROM attendee
      WHERE session = \(session) AND id = \(attendee.uuidString) FOR UPDATE
      """, logger: logger
    ).decode((String?, Bool).self) {
      stored = StoredCredential(value: credential, proved: proved)
    }
    let claim = StoreRules.claim(stored: stored, offered: offered, mint: mint)
    switch claim {
    case .taken, .needsMint: break
    case .proved:
      try await connection.query(
        """
        UPDATE attendee SET name = \(name), credentialProved = true
        WHERE session = \(session) AND id = \(attendee.uuidString)
          AND (name IS DISTINCT FROM \(name) OR NOT credentialProved)
        """, logger: logger)
    case .issued(let credential):
      // The credential already stored stays (`StoreRules.claim` issues it again), one another
      // instance stored between the read and the write included.
      let rows = try await connection.query(
        """
        INSERT INTO attendee (session, id, name, firstSeen, credential)
        VALUES (\(session), \(attendee.uuidString), \(name),
          \(time.timeIntervalSinceReferenceDate), \(credential.uuidString))
        ON CONFLICT (session, id) DO UPDATE SET name = excluded.name,
          credential = COALESCE(attendee.credential, excluded.credential)
        WHERE NOT attendee.credentialProved
        RETURNING credential
        """, logger: logger)
      var kept: UUID?
      for try await value in rows.decode(String?.self) {
        kept = value.flatMap(UUID.init(uuidString:))
      }
      // Another instance proved this id between the read and the write.
      return kept.map(AttendeeClaim.issued) ?? .taken
    }
    return claim
  }

  package func view(of attendee: UUID, presenter: Bool, session: Int64) async throws(StoreError)
    -> AttendeeView
  {
    try await read { [logger] connection in
      var voted: Set<String> = []
      for try await id in try await connection.query(
        "SELECT question FROM vote WHERE attendee = \(attendee.uuidString)", logger: logger
      ).decode(String.self) {
        voted.insert(id)
      }
      let records = try await Self.records(
        connection.query(
          """
          SELECT \(unescaped: Self.selected) FROM question
          WHERE session = \(session) AND attendee = \(attendee.uuidString)
          ORDER BY createdAt, rowid
          """, logger: logger))
      let names =
        presenter ? try await Self.names(connection, session, of: records, logger: logger) : [:]
      return AttendeeView(
        own: StoreRules.room(
          records, for: attendee, voted: voted, names: names, presenter: presenter),
        voted: Set(voted.compactMap(UUID.init(uuidString:))))
    }
  }

  package func vote(attendee: UUID, question: UUID, up: Bool, at time: Date, session: Int64)
    async throws(StoreError) -> QuestionStore.VoteOutcome?
  {
    try await write(session) { [logger] connection in
      // A question in review or dismissed is, to a voter, no question at all.
      guard var record = try await Self.record(connection, question, session, logger: logger),
        record.state == QuestionState.live.rawValue
      else {
        return nil
      }
      let key = (attendee: attendee.uuidString, question: question.uuidString)
      let existing =
        try await Self.int(
          connection.query(
            Self.bound(VoteSQL.counted, [.text(key.attendee), .text(key.question)]), logger: logger)
        ) != nil
      switch StoreRules.vote(on: record, by: attendee, up: up, existing: existing) {
      case .refuse(let reason):
        return QuestionStore.VoteOutcome(
          voted: false, votes: record.votes,
          seq: try await Self.currentSeq(connection, session, logger: logger), refusal: reason)
      case .unchanged:
        return QuestionStore.VoteOutcome(
          voted: existing, votes: record.votes,
          seq: try await Self.currentSeq(connection, session, logger: logger))
      case .add:
        try await connection.query(
          Self.bound(
            VoteSQL.add,
            [.text(key.attendee), .text(key.question), .real(time.timeIntervalSinceReferenceDate)]),
          logger: logger)
        record.votes += 1
      case .remove:
        try await connection.query(
          Self.bound(VoteSQL.remove, [.text(key.attendee), .text(key.question)]), logger: logger)
        record.votes -= 1
      }
      try await connection.query(
        Self.bound(VoteSQL.setCount, [SQLValue(record.votes), .text(record.id)]), logger: logger)
      let seq = try await self.logChange(connection, session, question, .votes)
      return QuestionStore.VoteOutcome(voted: up, votes: record.votes, seq: seq)
    }
  }

  package func snapshot(for attendee: UUID?, presenter: Bool, session: Int64)
    async throws(StoreError)
    -> (
      seq: Int, questions: [RoomQuestion], highlighted: UUID?, announcement: Announcement?,
      nextUp: NextUp?, labels: [String]
    )
  {
    try await read { [logger] connection in
      let seq = try await Self.currentSeq(connection, session, logger: logger)
      var voted: Set<String> = []
      if let attendee {
        for try await id in try await connection.query(
          "SELECT question FROM vote WHERE attendee = \(attendee.uuidString)", logger: logger
        ).decode(String.self) {
          voted.insert(id)
        }
      }
      let names = presenter ? try await Self.names(connection, session, logger: logger) : [:]
      let records = try await Self.ordered(connection, session, logger: logger)
      let highlighted = try await Self.roomState(
        connection, session, "highlighted", logger: logger)
      let announcement = try await Self.roomState(
        connection, session, "announcement", logger: logger)
      let nextUp = try await Self.nextUp(
        connection, session, presenter: presenter, logger: logger)
      return (
        seq,
        StoreRules.room(records, for: attendee, voted: voted, names: names, presenter: presenter),
        highlighted.flatMap(UUID.init(uuidString:)),
        StoreRules.announcement(from: announcement),
        nextUp.ids.isEmpty && !nextUp.shown ? nil : nextUp,
        try await Self.labels(connection, session, logger: logger)
      )
    }
  }

  /// Attendees' display names by id, for presenters: of `askers` only when given.
  package static func names(
    _ connection: PostgresConnection, _ session: Int64, of askers: [QuestionRecord]? = nil,
    logger: Logger
  ) async throws -> [UUID: String] {
    var query: PostgresQuery =
      "SELECT id, name FROM attendee WHERE session = \(session) AND name IS NOT NULL"
    if let askers {
      let ids = Array(Set(askers.compactMap(\.attendee)))
      guard !ids.isEmpty else { return [:] }
      query = """
        SELECT id, name FROM attendee WHERE session = \(session) AND name IS NOT NULL
        AND id = ANY(\(ids))
        """
    }
    var names: [UUID: String] = [:]
    for try await (id, name) in try await connection.query(query, logger: logger).decode(
      (String, String).self)
    {
      if let id = UUID(uuidString: id) { names[id] = name }
    }
    return names
  }

  package func changes(after: Int, upTo: Int, presenter: Bool, session: Int64)
    async throws(StoreError)
    -> RoomChanges
  {
    try await read { [logger] connection in
      var rows: [(question: String?, kind: String)] = []
      for try await row in try await connection.query(
        """
        SELECT question, kind FROM roomLog
        WHERE session = \(session) AND seq > \(after) AND seq <= \(upTo) ORDER BY seq
        """, logger: logger
      ).decode((String?, String).self) {
        rows.append(row)
      }
      let changed = StoreRules.changed(in: rows)
      let records = try await Self.records(
        connection.query(
          """
          SELECT \(unescaped: Self.selected) FROM question
          WHERE session = \(session) AND id = ANY(\(changed.ids))
          """, logger: logger))
      let highlight: HighlightChange? =
        changed.highlight
        ? HighlightChange(
          id: try await Self.roomState(connection, session, "highlighted", logger: logger)
            .flatMap(UUID.init(uuidString:)))
        : nil
      let announcement: Announcement? =
        changed.announcement
        ? StoreRules.announcement(
          from: try await Self.roomState(connection, session, "announcement", logger: logger))
          ?? Announcement()
        : nil
      return StoreRules.delta(
        after: after, upTo: upTo, named: changed.ids, countsOnly: changed.countsOnly,
        rows: records,
        names: presenter
          ? try await Self.names(connection, session, of: records, logger: logger) : [:],
        highlight: highlight, announcement: announcement,
        nextUp: changed.queue
          ? try await Self.nextUp(connection, session, presenter: presenter, logger: logger)
          : nil,
        labels: changed.labels
          ? try await Self.labels(connection, session, logger: logger)
          : nil,
        presenter: presenter)
    }
  }

  package func export(session: Int64) async throws(StoreError) -> [ExportedQuestion] {
    try await read { [logger] connection in
      let names = try await Self.names(connection, session, logger: logger)
      return try await Self.ordered(connection, session, logger: logger).map {
        let question = $0.question
        return ExportedQuestion(question: question, name: question.attendee.flatMap { names[$0] })
      }
    }
  }
}
