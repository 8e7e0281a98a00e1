import Foundation
import QnA

/// A question's row, the same in SQLite and PostgreSQL: UUIDs as upper-case text and dates as
/// seconds since 2001, so that the database reads well in `sqlite3` or `psql` and keeps full
/// precision.
struct QuestionRecord: Codable, Sendable {
  static let databaseTableName = "question"

  var id: String
  var content: String
  var answered: Bool
  var askedFrom: String
  var createdAt: Double
  var token: String?
  var attendee: String?
  var votes: Int
  var state: String
  var answer: String?
  var answerPrivate: Bool
  var answeredAt: Double?
  var published: Bool
  var session: Int64
}

extension QuestionRecord {
  init(_ question: StoredQuestion, session: Int64 = SessionRecord.defaultID) {
    self.session = session
    published = question.state != .review
    state = question.state.rawValue
    answer = question.answer
    answerPrivate = question.answerPrivate
    answeredAt = question.answeredAt?.timeIntervalSinceReferenceDate
    id = question.id.uuidString
    content = question.content
    answered = question.answered
    askedFrom = question.askedFrom.uuidString
    createdAt = question.createdAt.timeIntervalSinceReferenceDate
    token = question.token?.uuidString
    attendee = question.attendee?.uuidString
    votes = question.votes
  }

  var question: StoredQuestion {
    StoredQuestion(
      id: UUID(uuidString: id) ?? UUID(), content: content, answered: answered,
      askedFrom: UUID(uuidString: askedFrom) ?? UUID(),
      createdAt: Date(timeIntervalSinceReferenceDate: createdAt),
      token: token.flatMap(UUID.init(uuidString:)),
      attendee: attendee.flatMap(UUID.init(uuidString:)), votes: votes,
      state: QuestionState(rawValue: state) ?? .live, answer: answer,
      answerPrivate: answerPrivate,
      answeredAt: answeredAt.map(Date.init(timeIntervalSinceReferenceDate:)))
  }
}
