import Foundation
import PostgresNIO
import QnA
import QnAStore

/// Sessions in PostgreSQL: a join code's uniqueness is the database's constraint.
extension PostgresDriver {
  package static let sessionColumns = "id, code, title, token, open, createdAt, requestToken"

  package static func sessions(_ rows: PostgresRowSequence) async throws -> [SessionRecord] {
    var sessions: [SessionRecord] = []
    for try await (id, code, title, token, open, createdAt, requestToken) in rows.decode(
      (Int64, String, String, String, Bool, Double, String?).self)
    {
      sessions.append(
        SessionRecord(
          id: id, code: code, title: title, token: token, open: open, createdAt: createdAt,
          requestToken: requestToken))
    }
    return sessions
  }

  package func insertSession(_ record: SessionRecord, epoch: UUID) async throws(StoreError)
    -> SessionRecord?
  {
    try await transaction(locking: nil) { [logger] connection in
      let inserted = try await Self.int(
        connection.query(
          """
          INSERT INTO session (code, title, token, open, createdAt, requestToken)
          VALUES (\(record.code), \(record.title), \(record.token), \(record.open),
            \(record.createdAt), \(record.requestToken))
          ON CONFLICT DO NOTHING RETURNING id
          """, logger: logger))
      guard let inserted else { return nil }
      try await Self.setRoomState(
        connection, Int64(inserted), "epoch", epoch.uuidString, logger: logger)
      var saved = record
      saved.id = Int64(inserted)
      return saved
    }
  }

  package func session(code: String) async throws(StoreError) -> SessionRecord? {
    try await read { [logger] connection in
      try await Self.sessions(
        connection.query(
          "SELECT \(unescaped: Self.sessionColumns) FROM session WHERE code = \(code)",
          logger: logger)
      ).first
    }
  }

  package func session(requestToken: String) async throws(StoreError) -> SessionRecord? {
    try await read { [logger] connection in
      try await Self.sessions(
        connection.query(
          """
          SELECT \(unescaped: Self.sessionColumns) FROM session
          WHERE requestToken = \(requestToken)
          """, logger: logger)
      ).first
    }
  }

  package func sessions() async throws(StoreError) -> [SessionSummary] {
    try await read { [logger] connection in
      var counts: [Int64: Int] = [:]
      for try await (session, count) in try await connection.query(
        "SELECT session, COUNT(*) FROM question GROUP BY session", logger: logger
      ).decode((Int64, Int).self) {
        counts[session] = count
      }
      return try await Self.sessions(
        connection.query(
          "SELECT \(unescaped: Self.sessionColumns) FROM session ORDER BY createdAt, id",
          logger: logger)
      ).map { SessionSummary(session: $0, questions: counts[$0.id ?? -1] ?? 0) }
    }
  }

  package func setSession(code: String, open: Bool) async throws(StoreError) -> SessionRecord? {
    try await transaction(locking: nil) { [logger] connection in
      // The row's lock holds back a question being stored meanwhile (`requireOpen`).
      let record = try await Self.sessions(
        connection.query(
          """
          UPDATE session SET open = \(open) WHERE code = \(code)
          RETURNING \(unescaped: Self.sessionColumns)
          """, logger: logger)
      ).first
      if let id = record?.id { try await self.announce(connection, id, nil, .session) }
      return record
    }
  }

  package func deleteSession(code: String) async throws(StoreError) -> SessionRecord? {
    guard let record = try await session(code: code), let id = record.id else { return nil }
    return try await write(id) { [logger] connection in
      // Votes and transitions go with their questions (foreign keys, ON DELETE CASCADE).
      for table in StoreRules.sessionTables {
        try await connection.query(
          "DELETE FROM \(unescaped: table) WHERE session = \(id)", logger: logger)
      }
      let deleted = try await Self.int(
        connection.query("DELETE FROM session WHERE id = \(id) RETURNING id", logger: logger))
      // The other instances close the session's sockets too.
      try await self.announce(connection, id, nil, .session)
      return deleted == nil ? nil : record
    }
  }

  /// Inside a write: refuses anything in a session that is gone.
  package static func requireExists(
    _ connection: PostgresConnection, _ session: Int64, logger: Logger
  )
    async throws
  {
    guard session != SessionRecord.defaultID else { return }
    guard
      try await int(
        connection.query(
          "SELECT 1 FROM session WHERE id = \(session) FOR SHARE", logger: logger)) != nil
    else { throw StoreError.sessionClosed(QuestionStore.deletedMessage) }
  }

  /// Inside a write: refuses a new question in a session that is closed or gone.
  package static func requireOpen(
    _ connection: PostgresConnection, _ session: Int64, logger: Logger
  )
    async throws
  {
    guard session != SessionRecord.defaultID else { return }
    var open: Bool?
    for try await value in try await connection.query(
      "SELECT open FROM session WHERE id = \(session) FOR SHARE", logger: logger
    ).decode(Bool.self) {
      open = value
    }
    guard let open else { throw StoreError.sessionClosed(QuestionStore.deletedMessage) }
    if !open { throw StoreError.sessionClosed(QuestionStore.closedMessage) }
  }
}
