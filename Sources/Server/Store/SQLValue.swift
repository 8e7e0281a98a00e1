/// A value bound to a `PortableSQL` statement, or read from one's rows, as both databases
/// keep it: SQLite's four storage classes, which PostgreSQL's columns map onto.
package enum SQLValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  /// PostgreSQL's boolean; SQLite keeps it as 1 or 0.
  case boolean(Bool)
}

extension SQLValue {
  /// The value as both databases keep it: a text's NUL characters dropped. PostgreSQL's text
  /// cannot hold one (its insert would fail, whatever else the transaction held), so SQLite
  /// does not keep one either; no character anyone sees is lost.
  package var storable: SQLValue {
    guard case .text(let text) = self, text.utf8.contains(0) else { return self }
    return .text(String(text.unicodeScalars.filter { $0 != "\0" }.map(Character.init)))
  }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral
{
  package init(stringLiteral value: String) { self = .text(value) }
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(floatLiteral value: Double) { self = .real(value) }

  package init(_ value: String?) { self = value.map { .text($0) } ?? .null }
  package init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
  package init(_ value: Int) { self = .integer(Int64(value)) }
  package init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
  package init(_ value: Bool) { self = .boolean(value) }
}

/// One row a statement read, its columns in the statement's order. A column read as another
/// kind than it holds is `nil`, as a NULL is.
package struct SQLRow: Sendable, Hashable {
  package var values: [SQLValue]

  package init(_ values: [SQLValue]) { self.values = values }

  package func integer(_ column: Int) -> Int64? {
    guard values.indices.contains(column) else { return nil }
    switch values[column] {
    case .integer(let value): return value
    // PostgreSQL's NUMERIC and a REAL column in SQLite holding a whole number.
    case .real(let value): return Int64(exactly: value)
    default: return nil
    }
  }

  package func int(_ column: Int) -> Int? { integer(column).map { Int($0) } }

  package func real(_ column: Int) -> Double? {
    guard values.indices.contains(column) else { return nil }
    switch values[column] {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// A boolean as either database keeps it.
  package func bool(_ column: Int) -> Bool? {
    guard values.indices.contains(column) else { return nil }
    switch values[column] {
    case .boolean(let value): return value
    case .integer(let value): return value != 0
    default: return nil
    }
  }

  package func text(_ column: Int) -> String? {
    guard values.indices.contains(column), case .text(let value) = values[column] else {
      return nil
    }
    return value
  }
}
