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
    let token = SQLValue.text(token.uuidString)
    return .rows(QuestionSQL.byID, [.text(id.uuidString), .integer(session)]) { rows in
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
              action, on: record, id: id, highlighted: values[0].flatMap(UUID.init(uuidString:)),
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
                        token, .text(id.uuidString), .text(action.rawValue),
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
      writes += [.state("highlighted", highlight?.uuidString), .log(highlight, .highlight)]
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
    .rows(QuestionSQL.byID, [.text(id.uuidString), .integer(session)]) { question in
      guard !question.isEmpty else { return .done([]) }
      return .rows(QuestionSQL.transitions, [.text(id.uuidString)]) { rows in
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
