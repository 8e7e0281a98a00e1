import Foundation
import QnA

/// Sessions, written once for both databases: the statements, and the flows that run them
/// (`SessionDirectory+Sessions`).
package enum SessionSQL {
  static let columns = "id, code, title, token, open, createdAt, requestToken"
  /// $1 code.
  static let byCode = PortableSQL("SELECT \(columns) FROM session WHERE code = $1")
  /// $1 request token.
  static let byRequestToken = PortableSQL(
    "SELECT \(columns) FROM session WHERE requestToken = $1")
  static let all = PortableSQL("SELECT \(columns) FROM session ORDER BY createdAt, id")
  static let questionCounts: PortableSQL =
    "SELECT session, COUNT(*) FROM question GROUP BY session"
  /// $1 code, $2 title, $3 token, $4 open, $5 createdAt, $6 request token: no row when the
  /// code or the request token is taken.
  static let insert: PortableSQL = """
    INSERT INTO session (code, title, token, open, createdAt, requestToken)
    VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id
    """
  /// $1 open, $2 code. On PostgreSQL the row's lock holds back a question being stored
  /// meanwhile (`requireOpen`).
  static let setOpen = PortableSQL(
    "UPDATE session SET open = $1 WHERE code = $2 RETURNING \(columns)")
  /// $1 token, $2 code. The row's lock orders it with a close or another rotation.
  static let setToken = PortableSQL(
    "UPDATE session SET token = $1 WHERE code = $2 RETURNING \(columns)")
  /// $1 the session: its rows in each table that keeps some (votes and transitions go with
  /// their questions: foreign keys, ON DELETE CASCADE).
  static let deleteRows = StoreRules.sessionTables.map {
    PortableSQL("DELETE FROM \($0) WHERE session = $1")
  }
  /// $1 the session.
  static let delete: PortableSQL = "DELETE FROM session WHERE id = $1 RETURNING id"

  /// A session's row, its columns as `columns` lists them.
  static func record(_ row: SQLRow) -> SessionRecord? {
    guard let id = row.integer(0), let code = row.text(1), let title = row.text(2),
      let token = row.text(3), let open = row.bool(4), let createdAt = row.real(5)
    else { return nil }
    return SessionRecord(
      id: id, code: code, title: title, token: token, open: open, createdAt: createdAt,
      requestToken: row.text(6))
  }
}

extension TransactionFlow where Output == SessionRecord? {
  /// The first session the statement reads, if any.
  package static func session(_ statement: PortableSQL, _ values: [SQLValue])
    -> TransactionFlow
  {
    .rows(statement, values) { rows in .done(rows.first.flatMap(SessionSQL.record)) }
  }

  /// A new session with its room's epoch; `nil` when its code or request token is taken.
  package static func insert(_ record: SessionRecord, epoch: UUID) -> TransactionFlow {
    .rows(
      SessionSQL.insert,
      [
        .text(record.code), .text(record.title), .text(record.token), .boolean(record.open),
        .real(record.createdAt), SQLValue(record.requestToken),
      ]
    ) { rows in
      guard let id = rows.first?.integer(0) else { return .done(nil) }
      var saved = record
      saved.id = id
      return .run(
        RoomStateSQL.set, [.integer(id), "epoch", .text(epoch.text)], then: .done(saved))
    }
  }

  /// Opens or closes a session; its sockets on every instance hear of it.
  package static func setOpen(code: String, _ open: Bool) -> TransactionFlow {
    .rows(SessionSQL.setOpen, [.boolean(open), .text(code)]) { rows in
      guard let record = rows.first.flatMap(SessionSQL.record), let id = record.id else {
        return .done(nil)
      }
      return .tell(session: id, question: nil, .session, then: .done(record))
    }
  }

  /// Deletes a session and every row it has; the other instances close its sockets.
  package static func delete(_ record: SessionRecord) -> TransactionFlow {
    guard let id = record.id else { return .done(nil) }
    return .runAll(
      SessionSQL.deleteRows.map { ($0, [.integer(id)]) },
      then: .rows(SessionSQL.delete, [.integer(id)]) { deleted in
        deleted.isEmpty
          ? .done(nil) : .tell(session: id, question: nil, .session, then: .done(record))
      })
  }
}

extension TransactionFlow where Output == (session: SessionRecord, endedLogins: Int)? {
  /// A session's new presenter token, and the end of its logins, in one transaction that
  /// tells the other instances as a session's close does.
  package static func rotateToken(code: String, token: String, now: Double) -> TransactionFlow {
    .rows(SessionSQL.setToken, [.text(token), .text(code)]) { rows in
      guard let record = rows.first.flatMap(SessionSQL.record), let id = record.id else {
        return .done(nil)
      }
      return TransactionFlow<Int>.endLogins(scope: id, now: now).then { ended in
        .tell(session: id, question: nil, .session, then: .done((record, ended)))
      }
    }
  }
}

extension TransactionFlow where Output == [SessionSummary] {
  /// Every session, oldest first, with its number of questions.
  package static var sessions: TransactionFlow {
    .rows(SessionSQL.questionCounts, []) { counted in
      let counts = Dictionary(
        counted.compactMap { row in row.integer(0).map { ($0, row.int(1) ?? 0) } },
        uniquingKeysWith: +)
      return .rows(SessionSQL.all, []) { rows in
        .done(
          rows.compactMap(SessionSQL.record).map {
            SessionSummary(session: $0, questions: counts[$0.id ?? -1] ?? 0)
          })
      }
    }
  }
}
