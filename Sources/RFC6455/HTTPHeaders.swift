/// One HTTP header field as it appeared on the wire.
public struct HTTPHeader: Sendable, Hashable {
  public var name: String
  public var value: String

  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

/// An ordered list of header fields with case-insensitive lookup by name (RFC 7230 §3.2).
public struct HTTPHeaders: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
  public private(set) var fields: [HTTPHeader]

  public init(_ fields: [HTTPHeader] = []) { self.fields = fields }
  public init(arrayLiteral elements: (String, String)...) {
    fields = elements.map { HTTPHeader(name: $0.0, value: $0.1) }
  }

  public var startIndex: Int { fields.startIndex }
  public var endIndex: Int { fields.endIndex }
  public subscript(position: Int) -> HTTPHeader { fields[position] }

  public mutating func append(name: String, value: String) {
    fields.append(HTTPHeader(name: name, value: value))
  }

  /// Every value of the fields named `name`, in order.
  public func values(named name: String) -> [String] {
    fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
  }

  public func first(named name: String) -> String? { values(named: name).first }

  /// The comma-separated list elements of every field named `name` (RFC 7230 §7), trimmed,
  /// empty elements dropped.
  public func tokens(named name: String) -> [String] {
    values(named: name).flatMap { $0.split(separator: ",") }
      .map { String($0).trimmingHTTPWhitespace() }
      .filter { !$0.isEmpty }
  }
}

extension String {
  func trimmingHTTPWhitespace() -> String {
    let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isWhitespace($0) }) else { return "" }
    let last = lastIndex(where: { !isWhitespace($0) })!
    return String(self[first...last])
  }
}

enum HTTPSyntax {
  /// RFC 7230 §3.2.6 `tchar`.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  static func isToken(_ string: String) -> Bool {
    !string.isEmpty && string.utf8.allSatisfy(isTokenByte)
  }

  /// A field value must not carry CR, LF or NUL: they would end the field or the header block
  /// and let the value inject headers of its own.
  static func isSafeFieldValue(_ string: String) -> Bool {
    !string.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
  }
}
