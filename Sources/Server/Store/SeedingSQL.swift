import Foundation
import QnA

// What only the mock writes (`--mock`'s `/control/room/questions` and `/control/room/votes`,
// for tests and benchmarks), written once for both databases: many questions, or many votes,
// in one transaction on the session's lock.

extension TransactionFlow where Output == Void {
  /// Mock: the questions, as they are (each from an attendee of its own), each with its row in the
  /// room's log, and one notice for them all (other instances read the log again on it).
  package static func seed(_ questions: [StoredQuestion], session: Int64) -> TransactionFlow {
    .runEach(
      QuestionSQL.insert,
      questions.map { QuestionSQL.inserted(QuestionRecord($0, session: session)) },
      then: .runEach(
        RoomActionSQL.logChange,
        questions.map {
          [.integer(session), .text($0.id.text), .text(RoomChange.added.rawValue)]
        },
        then: .tell(session: session, question: nil, .added, then: .done(()))))
  }
}

extension TransactionFlow where Output == Int? {
  /// `count` votes for `question` from attendees who never voted (`makeID` names them); its
  /// count after them, `nil` when the session has no such question.
  package static func simulateVotes(
    for question: UUID, count: Int, at time: Date, makeID: @Sendable () -> UUID, session: Int64
  ) -> TransactionFlow {
    let votes: [[SQLValue]] = (0..<max(0, count)).map { _ in
      [
        .text(makeID().text), .text(question.text),
        .real(time.timeIntervalSinceReferenceDate),
      ]
    }
    return .rows(QuestionSQL.byID, [.text(question.text), .integer(session)]) { rows in
      guard let record = rows.first.flatMap(QuestionSQL.record) else { return .done(nil) }
      let total = record.votes + votes.count
      return .runInChunks(
        votes, VoteSQL.add(rows:),
        then: .run(
          VoteSQL.setCount, [SQLValue(total), .text(record.id)],
          then: RoomActionFlow.written(
            [.log(question, .votes)], session: session, then: .done(total))))
    }
  }
}
