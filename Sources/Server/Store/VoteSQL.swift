import Foundation
import QnA

/// A vote's SQL and its flow, written once for both databases: the question's row, the
/// attendee's vote, `StoreRules.vote`'s decision, the count and the room's log.
package enum VoteSQL {
  /// $1 attendee, $2 question: a row when the attendee's vote is counted.
  package static let counted: PortableSQL =
    "SELECT 1 FROM vote WHERE attendee = $1 AND question = $2"
  /// $1 attendee, $2 question, $3 createdAt.
  package static let add: PortableSQL =
    "INSERT INTO vote (attendee, question, createdAt) VALUES ($1, $2, $3)"
  /// $1 attendee, $2 question.
  package static let remove: PortableSQL =
    "DELETE FROM vote WHERE attendee = $1 AND question = $2"
  /// $1 the count, $2 question: the count alone, since a vote changes nothing else of the row
  /// (PostgreSQL's driver once wrote every column back).
  package static let setCount: PortableSQL = "UPDATE question SET votes = $1 WHERE id = $2"
}

extension VoteSQL {
  /// $1 session, $2 question, $3 kind: the log's row, and its sequence number back.
  static let logChange: PortableSQL =
    "INSERT INTO roomLog (session, question, kind) VALUES ($1, $2, $3) RETURNING seq"
}

extension TransactionFlow where Output == QuestionStore.VoteOutcome? {
  /// One vote per attendee per question (`StoreRules.vote`), on the session's lock: sending
  /// it again changes nothing. `nil`: no such question, or one in review or dismissed, which
  /// to a voter is no question at all.
  package static func vote(
    attendee: UUID, question: UUID, up: Bool, at time: Date, session: Int64
  ) -> TransactionFlow {
    typealias Outcome = QuestionStore.VoteOutcome
    let key: [SQLValue] = [.text(attendee.uuidString), .text(question.uuidString)]
    return .rows(QuestionSQL.byID, [.text(question.uuidString), .integer(session)]) { rows in
      guard let record = rows.first.flatMap(QuestionSQL.record),
        record.state == QuestionState.live.rawValue
      else { return .done(nil) }
      return .rows(VoteSQL.counted, key) { counted in
        let existing = !counted.isEmpty
        let asItIs: @Sendable (Bool, String?) -> TransactionFlow = { voted, refusal in
          TransactionFlow<Int>.currentSeq(session: session).then { seq in
            .done(Outcome(voted: voted, votes: record.votes, seq: seq, refusal: refusal))
          }
        }
        let (statement, values, votes): (PortableSQL, [SQLValue], Int)
        switch StoreRules.vote(on: record, by: attendee, up: up, existing: existing) {
        case .refuse(let reason): return asItIs(false, reason)
        case .unchanged: return asItIs(existing, nil)
        case .add:
          (statement, values, votes) = (
            VoteSQL.add, key + [.real(time.timeIntervalSinceReferenceDate)], record.votes + 1
          )
        case .remove: (statement, values, votes) = (VoteSQL.remove, key, record.votes - 1)
        }
        return .run(
          statement, values,
          then: .run(
            VoteSQL.setCount, [SQLValue(votes), .text(record.id)],
            then: .rows(
              VoteSQL.logChange,
              [.integer(session), .text(question.uuidString), .text(RoomChange.votes.rawValue)]
            ) { logged in
              .tell(
                session: session, question: question, .votes,
                then: .done(Outcome(voted: up, votes: votes, seq: logged.first?.int(0) ?? 0)))
            }))
      }
    }
  }
}
