import Foundation
import QnA

/// A question's row, written once for both databases: its columns, how a row reads, and what
/// a presenter's action writes of it (`TransactionFlow.perform`).
package enum QuestionSQL {
  /// A question's columns, in the order `record` reads them, and the row's number (its `n`
  /// in the room).
  static let selected = """
    id, content, answered, askedFrom, createdAt, token, attendee, votes, state, answer,
    answerPrivate, answeredAt, published, session, flagged, original, starred, label, rowid
    """
  /// $1 id, $2 session.
  static let byID = PortableSQL(
    "SELECT \(selected) FROM question WHERE id = $1 AND session = $2")
  /// $1 token, in any session (a token names one question).
  static let anyByToken = PortableSQL("SELECT \(selected) FROM question WHERE token = $1")
  /// Rows of (session, id).
  static func byIDs(rows: Int) -> PortableSQL {
    .keyed(
      "SELECT \(selected) FROM question WHERE", by: ["session", "id"], rows: rows,
      indexed: ["id", "session"])
  }
  /// Rows of (session, token).
  static func byTokens(rows: Int) -> PortableSQL {
    .keyed(
      "SELECT \(selected) FROM question WHERE", by: ["session", "token"], rows: rows,
      indexed: ["token", "session"])
  }
  /// Every column of a new question, in `selected`'s order but for the row's number.
  static let insert = PortableSQL(
    "INSERT INTO question (\(selected.replacingOccurrences(of: ", rowid", with: ""))) VALUES ("
      + (1...18).map { "$\($0)" }.joined(separator: ", ") + ")")
  /// $1 the connection it is asked from now, $2 id: its answers go there.
  static let moveTo: PortableSQL = "UPDATE question SET askedFrom = $1 WHERE id = $2"
  /// $1 session: its row, held against a close until this write ends (PostgreSQL).
  static let sessionOpen: PortableSQL = "SELECT open FROM session WHERE id = $1 FOR SHARE"
  /// $1 token, $2 session.
  static let byToken = PortableSQL(
    "SELECT \(selected) FROM question WHERE token = $1 AND session = $2")
  /// $1 session: oldest first.
  static let all = PortableSQL(
    "SELECT \(selected) FROM question WHERE session = $1 ORDER BY createdAt, rowid")
  /// $1 session: how many, how many answered.
  static let counts: PortableSQL = """
    SELECT COUNT(*), COUNT(*) FILTER (WHERE answered) FROM question WHERE session = $1
    """
  /// What a presenter's action may change of a question, and only that: a vote counted
  /// meanwhile is not written back. $1 content, $2 answered, $3 state, $4 answer, $5
  /// answerPrivate, $6 answeredAt, $7 published, $8 original, $9 starred, $10 label, $11 id.
  static let saveAction: PortableSQL = """
    UPDATE question SET content = $1, answered = $2, state = $3, answer = $4,
      answerPrivate = $5, answeredAt = $6, published = $7, original = $8, starred = $9,
      label = $10
    WHERE id = $11
    """
  /// $1 token: the question and action it was used for, if any.
  static let seenTransition: PortableSQL =
    "SELECT question, action FROM transition WHERE token = $1"
  /// $1 token: a row when an action on the room used it.
  static let usedOnTheRoom: PortableSQL = "SELECT 1 FROM roomAction WHERE token = $1"
  /// $1 token, $2 question, $3 action, $4 at, $5 text.
  static let keepTransition: PortableSQL = """
    INSERT INTO transition (token, question, action, at, text) VALUES ($1, $2, $3, $4, $5)
    """
  /// $1 session, $2 attendee, $3 at.
  static let silence: PortableSQL = """
    INSERT INTO silenced (session, attendee, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING
    """
  /// $1 session, $2 attendee.
  static let unsilence: PortableSQL = "DELETE FROM silenced WHERE session = $1 AND attendee = $2"

  /// $1 question: what the presenters did to it, oldest first.
  static let transitions: PortableSQL =
    "SELECT action, at, text FROM transition WHERE question = $1 ORDER BY at, rowid"

  /// A question's row, its columns as `selected` lists them.
  static func record(_ row: SQLRow) -> QuestionRecord? {
    guard let id = row.text(0), let content = row.text(1), let answered = row.bool(2),
      let askedFrom = row.text(3), let createdAt = row.real(4), let votes = row.int(7),
      let state = row.text(8), let answerPrivate = row.bool(10), let published = row.bool(12),
      let session = row.integer(13), let starred = row.bool(16)
    else { return nil }
    return QuestionRecord(
      id: id, content: content, answered: answered, askedFrom: askedFrom, createdAt: createdAt,
      token: row.text(5), attendee: row.text(6), votes: votes, state: state, answer: row.text(9),
      answerPrivate: answerPrivate, answeredAt: row.real(11), published: published,
      session: session, flagged: row.text(14), original: row.text(15), starred: starred,
      label: row.text(17), rowid: row.integer(18))
  }

  /// The values of `insert` for a record.
  static func inserted(_ record: QuestionRecord) -> [SQLValue] {
    [
      .text(record.id), .text(record.content), .boolean(record.answered), .text(record.askedFrom),
      .real(record.createdAt), SQLValue(record.token), SQLValue(record.attendee),
      SQLValue(record.votes), .text(record.state), SQLValue(record.answer),
      .boolean(record.answerPrivate), SQLValue(record.answeredAt), .boolean(record.published),
      .integer(record.session), SQLValue(record.flagged), SQLValue(record.original),
      .boolean(record.starred), SQLValue(record.label),
    ]
  }

  /// The values of `saveAction` for a record.
  static func saved(_ record: QuestionRecord) -> [SQLValue] {
    [
      .text(record.content), .boolean(record.answered), .text(record.state),
      SQLValue(record.answer), .boolean(record.answerPrivate), SQLValue(record.answeredAt),
      .boolean(record.published), SQLValue(record.original), .boolean(record.starred),
      SQLValue(record.label), .text(record.id),
    ]
  }
}

extension TransactionFlow where Output == QuestionStore.ActionOutcome? {
  /// A presenter's `action` on question `id` (`nil`: no such question), as
  /// `StoreRules.perform` decides it, on the session's lock: the token's first use is the
  /// only one that acts; a repeat returns the question as it is now.
  package static func perform(
    _ action: PresenterActionKind, on id: UUID, text: String?, isPrivate: Bool, token: UUID,
    at time: Date, session: Int64
  ) -> TransactionFlow {
    typealias Outcome = QuestionStore.ActionOutcome
    let token = SQLValue.text(token.text)
    return .rows(QuestionSQL.byID, [.text(id.text), .integer(session)]) { rows in
      guard let record = rows.first.flatMap(QuestionSQL.record) else { return .done(nil) }
      let unchanged: @Sendable (String?) -> TransactionFlow = { refusal in
        .done(Outcome(question: record.question, changed: false, refusal: refusal))
      }
      return .rows(QuestionSQL.seenTransition, [token]) { seen in
        if let row = seen.first {
          return unchanged(
            StoreRules.repeatRefusal(
              seenQuestion: row.text(0) ?? "", seenAction: row.text(1) ?? "", action: action,
              on: id))
        }
        // A token names one action, whichever table keeps it.
        return .rows(QuestionSQL.usedOnTheRoom, [token]) { used in
          guard used.isEmpty else { return unchanged("That token was used for another action.") }
          return TransactionFlow<[String?]>.roomState(
            ["highlighted", "queue", "labels"], session: session
          ).then { values in
            switch StoreRules.perform(
              action, on: record, id: id, highlighted: values[0].flatMap(UUID.init(text:)),
              text: text, isPrivate: isPrivate, at: time,
              queue: StoreRules.queue(from: values[1]),
              labels: action == .relabel ? StoreRules.labels(from: values[2]) : [])
            {
            case .failure(let refusal): return unchanged(refusal.reason)
            case .success(let step):
              return RoomActionFlow.written(
                writes(of: step, action, id: id, at: time, session: session)
                  + [
                    .run(
                      QuestionSQL.keepTransition,
                      [
                        token, .text(id.text), .text(action.rawValue),
                        .real(time.timeIntervalSinceReferenceDate),
                        SQLValue(StoreRules.transitionText(of: action, text, record: step.record)),
                      ])
                  ], session: session,
                then: .done(
                  Outcome(
                    question: step.record.question,
                    changed: step.changed || step.highlight != .none || step.silence != nil
                      || step.queue != nil)))
            }
          }
        }
      }
    }
  }

  /// What an action's step writes: the row and its log entry, the highlight, the queue, the
  /// asker silenced or not (the instances' filters read them again).
  private static func writes(
    of step: StoreRules.ActionStep, _ action: PresenterActionKind, id: UUID, at time: Date,
    session: Int64
  ) -> [RoomWrite] {
    var writes: [RoomWrite] = []
    if step.changed {
      writes += [
        .run(QuestionSQL.saveAction, QuestionSQL.saved(step.record)),
        .log(id, StoreRules.logKind(of: action)),
      ]
    }
    if case .some(let highlight) = step.highlight {
      writes += [.state("highlighted", highlight?.text), .log(highlight, .highlight)]
    }
    if let queue = step.queue {
      writes += [.state("queue", StoreRules.queueValue(queue)), .log(nil, .queue)]
    }
    if let silence = step.silence, let attendee = step.record.attendee {
      writes.append(
        silence
          ? .run(
            QuestionSQL.silence,
            [.integer(session), .text(attendee), .real(time.timeIntervalSinceReferenceDate)])
          : .run(QuestionSQL.unsilence, [.integer(session), .text(attendee)]))
      writes.append(.tellOthers(.filter))
    }
    return writes
  }
}

extension TransactionFlow where Output == [(action: PresenterActionKind, at: Date, text: String?)] {
  /// Every transition of question `id`, oldest first; none for a question the session does
  /// not have.
  package static func transitions(of id: UUID, session: Int64) -> TransactionFlow {
    .rows(QuestionSQL.byID, [.text(id.text), .integer(session)]) { question in
      guard !question.isEmpty else { return .done([]) }
      return .rows(QuestionSQL.transitions, [.text(id.text)]) { rows in
        .done(
          rows.compactMap { row in
            guard let action = row.text(0).flatMap(PresenterActionKind.init(rawValue:)),
              let at = row.real(1)
            else { return nil }
            return (action, Date(timeIntervalSinceReferenceDate: at), row.text(2))
          })
      }
    }
  }
}

extension TransactionFlow where Output == [StoredQuestion] {
  /// The questions a statement reads.
  package static func questions(_ statement: PortableSQL, _ values: [SQLValue])
    -> TransactionFlow
  {
    .rows(statement, values) { rows in .done(rows.compactMap(QuestionSQL.record).map(\.question)) }
  }
}

extension TransactionFlow where Output == (total: Int, answered: Int) {
  /// How many questions the session has, and how many are answered.
  package static func counts(session: Int64) -> TransactionFlow {
    .rows(QuestionSQL.counts, [.integer(session)]) { rows in
      .done((rows.first?.int(0) ?? 0, rows.first?.int(1) ?? 0))
    }
  }
}

extension TransactionFlow where Output == (question: StoredQuestion, inserted: Bool) {
  /// A new question, in a session that is open; a question with the same token is not
  /// stored again: the one there comes back (`inserted` false), now asked from the sender's
  /// connection, so that its answer reaches the sender where it is now.
  package static func insert(_ question: StoredQuestion, session: Int64) -> TransactionFlow {
    let store: @Sendable (StoredQuestion) -> TransactionFlow = { question in
      .run(
        QuestionSQL.insert, QuestionSQL.inserted(QuestionRecord(question, session: session)),
        then: RoomActionFlow.written(
          [.log(question.id, .added)], session: session, then: .done((question, true))))
    }
    let add = TransactionFlow<Bool>.requireOpen(session).then { _ -> TransactionFlow in
      guard let label = question.label else { return store(question) }
      // Filed under the session's label as the session spells it.
      return TransactionFlow<[String?]>.roomState(["labels"], session: session).then { labels in
        var labelled = question
        do throws(StoreError) {
          labelled.label = try StoreRules.sessionLabel(
            label, labels: StoreRules.labels(from: labels[0]))
        } catch {
          return .fail(error)
        }
        return store(labelled)
      }
    }
    guard let token = question.token else { return add }
    return .rows(QuestionSQL.anyByToken, [.text(token.text)]) { rows in
      guard let existing = rows.first.flatMap(QuestionSQL.record) else { return add }
      let moved: QuestionRecord?
      do throws(StoreError) {
        moved = try StoreRules.resend(question, of: existing, session: session)
      } catch {
        return .fail(error)
      }
      guard let moved else { return .done((existing.question, false)) }
      return .run(
        QuestionSQL.moveTo, [.text(moved.askedFrom), .text(moved.id)],
        then: .done((moved.question, false)))
    }
  }
}

extension TransactionFlow where Output == Bool {
  /// Refuses a new question in a session that is closed or gone.
  static func requireOpen(_ session: Int64) -> TransactionFlow {
    guard session != SessionRecord.defaultID else { return .done(true) }
    return .rows(QuestionSQL.sessionOpen, [.integer(session)]) { rows in
      guard let open = rows.first?.bool(0) else {
        return .fail(.sessionClosed(QuestionStore.deletedMessage))
      }
      return open ? .done(true) : .fail(.sessionClosed(QuestionStore.closedMessage))
    }
  }
}

extension TransactionFlow where Output == (questions: [StoredQuestion], changed: [QuestionRecord]) {
  /// What a resume would move (`StoreRules.resumed`): the questions with these tokens, and
  /// those with these ids that `attendee` asked, and which of them are asked from another
  /// connection than `connection` now. Only reads.
  package static func resumable(
    ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?, session: Int64
  ) -> TransactionFlow {
    .rowsInBatches(ids.map { [.integer(session), .text($0.text)] }, QuestionSQL.byIDs(rows:)) {
      byID in
      .rowsInBatches(
        tokens.map { [.integer(session), .text($0.text)] }, QuestionSQL.byTokens(rows:)
      ) { byToken in
        .done(
          StoreRules.resumed(
            byID: byID.compactMap(QuestionSQL.record),
            byToken: byToken.compactMap(QuestionSQL.record), to: connection, attendee: attendee))
      }
    }
  }
}

extension TransactionFlow where Output == [StoredQuestion] {
  /// The questions `resumable` finds, now asked from `connection`.
  package static func reassign(
    ids: [UUID], tokens: [UUID], to connection: UUID, attendee: UUID?, session: Int64
  ) -> TransactionFlow {
    TransactionFlow<(questions: [StoredQuestion], changed: [QuestionRecord])>.resumable(
      ids: ids, tokens: tokens, to: connection, attendee: attendee, session: session
    ).then { moved in
      .runEach(
        QuestionSQL.moveTo, moved.changed.map { [.text($0.askedFrom), .text($0.id)] },
        then: .done(moved.questions))
    }
  }
}

extension TransactionFlow where Output == Set<UUID> {
  /// Which of these ids the session has.
  package static func existing(ids: [UUID], session: Int64) -> TransactionFlow {
    .rowsInBatches(ids.map { [.integer(session), .text($0.text)] }, QuestionSQL.byIDs(rows:)) {
      rows in .done(Set(rows.compactMap { $0.text(0).flatMap(UUID.init(text:)) }))
    }
  }
}

extension QuestionSQL {
  /// A page, newest first (most votes first when `byVotes`), $1 session, then $2 label when
  /// `labelled`, then the anchor's id when `anchored` (the page resumes after its row, by
  /// row comparison, which both databases read; no such anchor, no rows), then the limit.
  static func page(byVotes: Bool, labelled: Bool, anchored: Bool) -> PortableSQL {
    let keys = (byVotes ? "votes, " : "") + "createdAt, rowid"
    var number = 1
    func next() -> String {
      number += 1
      return "$\(number)"
    }
    var sql = "SELECT \(selected) FROM question WHERE session = $1"
    if labelled { sql += " AND label = \(next())" }
    if anchored {
      sql +=
        " AND (\(keys)) < (SELECT \(keys) FROM question WHERE id = \(next()) AND session = $1)"
    }
    let descending = keys.split(separator: ", ").map { "\($0) DESC" }.joined(separator: ", ")
    return PortableSQL(sql + " ORDER BY \(descending) LIMIT \(next())")
  }
}

extension TransactionFlow where Output == [StoredQuestion] {
  /// Up to `limit` questions, newest first, older than the question `before` names when
  /// given, with label `label` only when given: it reads only what it returns.
  package static func page(
    limit: Int, before: UUID?, byVotes: Bool, label: String?, session: Int64
  ) -> TransactionFlow {
    let values: [SQLValue] =
      [.integer(session)] + (label.map { [.text($0)] } ?? [])
      + (before.map { [.text($0.text)] } ?? []) + [.integer(Int64(max(0, limit)))]
    return .questions(
      QuestionSQL.page(byVotes: byVotes, labelled: label != nil, anchored: before != nil), values)
  }
}
