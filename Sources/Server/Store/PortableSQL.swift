import Synchronization

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
    // Byte by byte: a batch's statements are made for each batch, some of thousands of bytes.
    var sqlite = String(
      decoding: statement.utf8.map { $0 == UInt8(ascii: "$") ? UInt8(ascii: "?") : $0 },
      as: UTF8.self)
    for rowLock in [" FOR UPDATE", " FOR SHARE"] where sqlite.hasSuffix(rowLock) {
      sqlite.removeLast(rowLock.count)
    }
    self.sqlite = sqlite
  }
}

extension PortableSQL {
  /// `rows` written with `statement(n)`, a statement of `n` rows: `chunk` rows at a time, and
  /// what is left in halving sizes (128, 64, … 1 row), so that a list of any length is a
  /// few statements (at most one per whole chunk, and eight for the rest) and a database
  /// prepares a handful of sizes, not one per length. A list of thousands, or a resume of a
  /// few hundred ids under the session's lock, is a few round trips, not one per row.
  package static func batches(
    of rows: [[SQLValue]], chunk: Int = 256, _ statement: (Int) -> PortableSQL
  ) -> [(statement: PortableSQL, values: [[SQLValue]])] {
    var batches: [(statement: PortableSQL, values: [[SQLValue]])] = []
    var start = 0
    var size = chunk
    while start < rows.count, size > 0 {
      let count = (rows.count - start) / size
      if count > 0 {
        batches.append(
          (
            statement(size),
            (0..<count).map { index in
              let from = start + index * size
              return Array(rows[from..<(from + size)].joined())
            }
          ))
        start += count * size
      }
      size /= 2
    }
    return batches
  }

  /// Keys to read with `statement(n)`, a statement of `n` keys: `chunk` at a time, the rest
  /// in one statement of the next power of two, padded with the last key again (a key read
  /// twice reads its rows once). A list of any length is ⌈length ÷ chunk⌉ statements, a
  /// round trip each, of a handful of sizes.
  package static func readBatches(
    of keys: [[SQLValue]], chunk: Int = 256, _ statement: (Int) -> PortableSQL
  ) -> [(statement: PortableSQL, values: [SQLValue])] {
    var batches: [(statement: PortableSQL, values: [SQLValue])] = []
    var start = 0
    while start < keys.count {
      let left = keys.count - start
      var size = 1
      while size < min(left, chunk) { size *= 2 }
      let taken = keys[start..<min(keys.count, start + size)]
      let padding = Array(repeating: keys[keys.count - 1], count: size - taken.count)
      batches.append((statement(size), Array((taken + padding).joined())))
      start += taken.count
    }
    return batches
  }

  /// `statement` (up to its `WHERE`) followed by `(columns) IN (SELECT … FROM (VALUES …))`:
  /// `rows` keys of as many values as `columns` names, numbered from `$1`. A list of keys
  /// read or deleted in one statement, each looked up in the index whose columns lead as
  /// `indexed` orders them (the same names: the table's key, say `id` before `session`).
  /// SQLite scans the whole table for a row value `IN (VALUES …)` of two keys or more; with
  /// the values selected, in the index's order, it searches the index for each.
  ///
  /// `mixedTypes`: the key's columns differ in type (an integer session, a text id). SQLite
  /// searches an index by a row value only as far as its columns share one affinity (the
  /// session alone: every row of the session read), so each column after the first is also
  /// listed on its own, `AND id IN (…)`, the same values again, which it searches by too. A
  /// keyed statement belongs in `KeyedLookups`, whose test on SQLite finds one that needs it.
  package static func keyed(
    _ statement: String, by columns: [String], rows: Int, indexed: [String]? = nil,
    mixedTypes: Bool = false
  ) -> PortableSQL {
    let order = indexed ?? columns
    precondition(Set(order) == Set(columns) && order.count == columns.count)
    let column = { (name: String) in "column\(columns.firstIndex(of: name)! + 1)" }
    let values = valueRows(width: columns.count, count: rows)
    let apart =
      mixedTypes
      ? order.dropFirst().map {
        " AND \($0) IN (SELECT \(column($0)) FROM (VALUES \(values)) AS keyed)"
      }
      : []
    return PortableSQL(
      statement + " (" + order.joined(separator: ", ") + ") IN (SELECT "
        + order.map(column).joined(separator: ", ") + " FROM (VALUES " + values + ") AS keyed)"
        + apart.joined())
  }

  /// `count` rows of `width` placeholders each, numbered from `$1`: `($1, $2), ($3, $4)`.
  /// Made once per shape (batches come in a handful of sizes).
  package static func valueRows(width: Int, count: Int) -> String {
    let shape = width << 32 | count
    if let made = madeRows.withLock({ $0[shape] }) { return made }
    let made = (0..<count).map { row in
      "(" + (1...width).map { "$\(row * width + $0)" }.joined(separator: ", ") + ")"
    }.joined(separator: ", ")
    madeRows.withLock { rows in
      // Bounded all the same: a caller with lengths of every size stops adding.
      if rows.count < 256 { rows[shape] = made }
    }
    return made
  }

  private static let madeRows = Mutex<[Int: String]>([:])
}
