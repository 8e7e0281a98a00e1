/// A statement written once for both databases, in PostgreSQL's numbered placeholders (`$1`…),
/// which SQLite reads as `?1`…: where the two dialects agree, each driver only runs it, in a
/// transaction of its own kind (`TicketSQL`, `VoteSQL`).
package struct PortableSQL: Sendable, ExpressibleByStringLiteral {
  package let postgres: String
  /// Made once with the statement, not on every run: votes come by the thousand a second.
  package let sqlite: String

  package init(stringLiteral statement: String) {
    postgres = statement
    sqlite = statement.replacingOccurrences(of: "$", with: "?")
  }
}
