import Foundation
import QnA

/// A question's row, the same in SQLite and PostgreSQL: UUIDs as upper-case text and dates as
/// seconds since 2001, so that the database reads well in `sqlite3` or `psql` and keeps full
/// precision.
package struct QuestionRecord: Codable, Sendable {
  package static let databaseTableName = "question"

  package var id: String
  package var content: String
  package var answered: Bool
  package var askedFrom: String
  package var createdAt: Double
  package var token: String?
  package var attendee: String?
  package var votes: Int
  package var state: String
  package var answer: String?
  package var answerPrivate: Bool
  package var answeredAt: Double?
  package var published: Bool
  package var session: Int64
  /// The filter's matches, one per line (entries have no line breaks).
  package var flagged: String?
  /// The text as asked, once a presenter edited it.
  package var original: String?
  package var starred: Bool
  /// The session's label it is filed under, if any.
  package var label: String?
  /// The row's number in the database, read, never written (the database assigns it): a
  /// question's `n` in the room (extension `counts`). Optional, so that saving a record
  /// leaves it out.
  package var rowid: Int64?

  package init(
    id: String, content: String, answered: Bool, askedFrom: String, createdAt: Double,
    token: String?, attendee: String?, votes: Int, state: String, answer: String?,
    answerPrivate: Bool, answeredAt: Double?, published: Bool, session: Int64,
    flagged: String? = nil, original: String? = nil, starred: Bool = false,
    label: String? = nil, rowid: Int64? = nil
  ) {
    self.label = label
    self.starred = starred
    self.flagged = flagged
    self.original = original
    self.rowid = rowid
    self.id = id
    self.content = content
    self.answered = answered
    self.askedFrom = askedFrom
    self.createdAt = createdAt
    self.token = token
    self.attendee = attendee
    self.votes = votes
    self.state = state
    self.answer = answer
    self.answerPrivate = answerPrivate
    self.answeredAt = answeredAt
    self.published = published
    self.session = session
  }
}

extension QuestionRecord {
  package init(_ question: StoredQuestion, session: Int64 = SessionRecord.defaultID) {
    self.session = session
    flagged = question.flagged.isEmpty ? nil : question.flagged.joined(separator: "\n")
    original = question.original
    starred = question.starred
    label = question.label
    published = question.state != .review
    state = question.state.rawValue
    answer = question.answer
    answerPrivate = question.answerPrivate
    answeredAt = question.answeredAt?.timeIntervalSinceReferenceDate
    id = question.id.text
    content = question.content
    answered = question.answered
    askedFrom = question.askedFrom.text
    createdAt = question.createdAt.timeIntervalSinceReferenceDate
    token = question.token?.text
    attendee = question.attendee?.text
    votes = question.votes
  }

  package var question: StoredQuestion {
    StoredQuestion(
      id: UUID(text: id) ?? UUID(), content: content, answered: answered,
      askedFrom: UUID(text: askedFrom) ?? UUID(),
      createdAt: Date(timeIntervalSinceReferenceDate: createdAt),
      token: token.flatMap(UUID.init(text:)),
      attendee: attendee.flatMap(UUID.init(text:)), votes: votes,
      state: QuestionState(rawValue: state) ?? .live, answer: answer,
      answerPrivate: answerPrivate,
      answeredAt: answeredAt.map(Date.init(timeIntervalSinceReferenceDate:)),
      flagged: flagged.map { $0.split(separator: "\n").map(String.init) } ?? [],
      original: original, starred: starred, label: label)
  }

  /// As the room shows it (`StoredQuestion.roomQuestion`), numbered.
  package func roomQuestion(presenter: Bool, asker: Bool, names: [UUID: String] = [:])
    -> RoomQuestion
  {
    var shown = question.roomQuestion(presenter: presenter, asker: asker, names: names)
    shown.n = rowid.map(Int.init)
    return shown
  }
}
