/// A statement written once for both databases, in PostgreSQL's numbered placeholders (`$1`…),
/// which SQLite reads as `?1`…: where the two dialects agree, each driver only runs it, in a
/// transaction of its own kind (`TicketSQL`, `VoteSQL`, `LoginSQL`). A row lock at the end
/// (`FOR UPDATE`, `FOR SHARE`) is PostgreSQL's alone: SQLite, whose writes are one at a
/// time, reads the statement without it.
package struct PortableSQL: Sendable, ExpressibleByStringLiteral {
  package let postgres: String
  /// Made once with the statement, not on every run: votes come by the thousand a second.
  package let sqlite: String

  package init(stringLiteral statement: String) { self.init(statement) }

  package init(_ statement: String) {
    postgres = statement
    var sqlite = statement.replacingOccurrences(of: "$", with: "?")
    for rowLock in [" FOR UPDATE", " FOR SHARE"] where sqlite.hasSuffix(rowLock) {
      sqlite.removeLast(rowLock.count)
    }
    self.sqlite = sqlite
  }
}
