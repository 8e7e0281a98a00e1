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
    let key: [SQLValue] = [.text(attendee.text), .text(question.text)]
    return .rows(QuestionSQL.byID, [.text(question.text), .integer(session)]) { rows in
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
        switch StoreRules.vote(on: record.voteTarget, by: attendee, up: up, existing: existing) {
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
              [.integer(session), .text(question.text), .text(RoomChange.votes.rawValue)]
            ) { logged in
              .tell(
                session: session, question: question, .votes,
                then: .done(Outcome(voted: up, votes: votes, seq: logged.first?.int(0) ?? 0)))
            }))
      }
    }
  }
}

/// One vote, as the store batches it (`GroupCommit`).
package struct VoteRequest: Sendable {
  package var attendee: UUID
  package var question: UUID
  package var up: Bool
  package var time: Date

  package init(attendee: UUID, question: UUID, up: Bool, time: Date) {
    self.attendee = attendee
    self.question = question
    self.up = up
    self.time = time
  }
}

extension VoteSQL {
  /// Rows of (attendee, question): those whose vote is counted.
  static func counted(rows: Int) -> PortableSQL {
    .keyed("SELECT attendee, question FROM vote WHERE", by: ["attendee", "question"], rows: rows)
  }
  /// Rows of (attendee, question, createdAt).
  static func add(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO vote (attendee, question, createdAt) VALUES "
        + PortableSQL.valueRows(width: 3, count: rows))
  }
  /// Rows of (question, count): each question's count (both databases name a `VALUES` list's
  /// columns `column1`, `column2`).
  static func setCounts(rows: Int) -> PortableSQL {
    PortableSQL(
      "UPDATE question SET votes = counts.column2 FROM (VALUES "
        + PortableSQL.valueRows(width: 2, count: rows)
        + ") AS counts WHERE question.id = counts.column1")
  }
  /// Rows of (session, question, kind): the room's log, a row each.
  static func logChanges(rows: Int) -> PortableSQL {
    PortableSQL(
      "INSERT INTO roomLog (session, question, kind) VALUES "
        + PortableSQL.valueRows(width: 3, count: rows))
  }
  /// Rows of (attendee, question).
  static func remove(rows: Int) -> PortableSQL {
    .keyed("DELETE FROM vote WHERE", by: ["attendee", "question"], rows: rows)
  }
}

extension TransactionFlow where Output == [QuestionStore.VoteOutcome?] {
  /// A batch of votes in one transaction on the session's lock, each decided in order as
  /// `StoreRules.vote` decides it alone (`VoteTally`): their questions and counted votes
  /// read in a few statements, what they change written in a few more (a few hundred rows a
  /// statement, whatever the batch's size), one log row per question whose count changed. Each outcome is as of the batch's last sequence number,
  /// with its question's count then; `nil` for no such question, or one in review or
  /// dismissed.
  package static func votes(_ requests: [VoteRequest], session: Int64) -> TransactionFlow {
    typealias Outcome = QuestionStore.VoteOutcome
    // Each request's key, its ids as text, made once.
    let keys = requests.map(VotePair.init)
    let questions = Set(keys.map(\.question)).sorted()
    return .rowsInBatches(
      questions.map { [.integer(session), .text($0)] }, VoteSQL.targets(rows:)
    ) { rows in
      let live = rows.compactMap(VoteSQL.target)
      let liveIDs = Set(live.map(\.id))
      let pairs = Set(keys.filter { liveIDs.contains($0.question) }).sorted()
      return .rowsInBatches(
        pairs.map { [.text($0.attendee), .text($0.question)] }, VoteSQL.counted(rows:)
      ) { counted in
        var tally = VoteTally(
          live: live,
          counted: Set(
            counted.compactMap { row in
              guard let attendee = row.text(0), let question = row.text(1) else { return nil }
              return VotePair(attendee: attendee, question: question)
            }))
        let steps = zip(requests, keys).map { tally.apply($0, as: $1) }
        let changed = tally.changed
        let written = TransactionFlow<Int>.runInChunks(
          tally.added.map { [.text($0.pair.attendee), .text($0.pair.question), .real($0.at)] },
          VoteSQL.add(rows:),
          then: .runInChunks(
            tally.removed.map { [.text($0.attendee), .text($0.question)] }, VoteSQL.remove(rows:),
            then: .runInChunks(
              changed.map { [.text($0.id), SQLValue($0.votes)] }, VoteSQL.setCounts(rows:),
              then: .runInChunks(
                changed.map {
                  [.integer(session), .text($0.id), .text(RoomChange.votes.rawValue)]
                }, VoteSQL.logChanges(rows:),
                // One notice for the batch: other instances read the log again on it.
                then: changed.isEmpty
                  ? .currentSeq(session: session)
                  : .tell(
                    session: session, question: nil, .votes,
                    then: .currentSeq(session: session))))))
        // Each answer is as of the batch: its question's count, and whether the attendee's
        // vote counts then (another device of the same attendee may have taken it back in the
        // same batch).
        let final = tally
        return written.then { seq in
          .done(
            zip(keys, steps).map { pair, step in
              step.map {
                Outcome(
                  voted: final.counts(pair), votes: final.votes[pair.question] ?? 0, seq: seq,
                  refusal: $0.refusal)
              }
            })
        }
      }
    }
  }
}
