import Foundation
import QnA

/// What a vote needs of its question (`StoreRules.vote`): whose it is, whether it is answered,
/// and its count. A batch of votes reads these four columns of its live questions, not their
/// whole rows with their text.
package struct VoteTarget: Sendable, Equatable {
  package var id: String
  package var attendee: String?
  package var answered: Bool
  package var votes: Int

  package init(id: String, attendee: String?, answered: Bool, votes: Int) {
    self.id = id
    self.attendee = attendee
    self.answered = answered
    self.votes = votes
  }
}

extension QuestionRecord {
  package var voteTarget: VoteTarget {
    VoteTarget(id: id, attendee: attendee, answered: answered, votes: votes)
  }
}

extension VoteSQL {
  /// Rows of (session, id): each live question's `VoteTarget`; questions in review, dismissed
  /// or unknown give no row.
  static func targets(rows: Int) -> PortableSQL {
    .keyed(
      "SELECT id, attendee, answered, votes FROM question WHERE state = '"
        + QuestionState.live.rawValue + "' AND", by: ["session", "id"], rows: rows,
      indexed: ["id", "session"])
  }

  /// A row of `targets`.
  static func target(_ row: SQLRow) -> VoteTarget? {
    guard let id = row.text(0), let answered = row.bool(2), let votes = row.int(3) else {
      return nil
    }
    return VoteTarget(id: id, attendee: row.text(1), answered: answered, votes: votes)
  }
}
