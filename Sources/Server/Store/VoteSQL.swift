/// A vote's SQL, written once for both databases (`PortableSQL`). The rules between the
/// statements (`StoreRules.vote`) are the store's; the question's row is read by each driver,
/// as it decodes a `QuestionRecord`.
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
