/// A statement written once for both databases, in PostgreSQL's numbered placeholders (`$1`…),
/// which SQLite reads as `?1`…: where the two dialects agree, each driver only runs it, in a
/// transaction of its own kind (`TicketSQL`, `VoteSQL`, `LoginSQL`). A row lock at the end
/// (`FOR UPDATE`, `FOR SHARE`) is PostgreSQL's alone: SQLite, whose writes are one at a
/// time, reads the statement without it.
package struct PortableSQL: Sendable, Hashable, ExpressibleByStringLiteral {
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

extension PortableSQL {
  /// `rows` written with `statement(n)`, a statement of `n` rows, `chunk` rows at a time;
  /// the last rows, fewer than a chunk, one at a time, so that a database prepares two
  /// statements, not one per size. A list of thousands is a few round trips, not thousands.
  package static func batches(
    of rows: [[SQLValue]], chunk: Int = 256, _ statement: (Int) -> PortableSQL
  ) -> [(statement: PortableSQL, values: [[SQLValue]])] {
    let whole = rows.count / chunk * chunk
    var batches: [(statement: PortableSQL, values: [[SQLValue]])] = []
    if whole > 0 {
      batches.append(
        (
          statement(chunk),
          stride(from: 0, to: whole, by: chunk).map { Array(rows[$0..<($0 + chunk)].joined()) }
        ))
    }
    if whole < rows.count { batches.append((statement(1), Array(rows[whole...]))) }
    return batches
  }

  /// `count` rows of `width` placeholders each, numbered from `$1`: `($1, $2), ($3, $4)`.
  package static func valueRows(width: Int, count: Int) -> String {
    (0..<count).map { row in
      "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")"
    }.joined(separator: ", ")
  }
}
