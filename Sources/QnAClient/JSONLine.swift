import CommandLineValues

/// One JSON object on one line, keys in the order given, strings escaped so that no control
/// character or line break from a hostile server reaches the output raw.
public struct JSONLine: Sendable, Equatable, CustomStringConvertible {
  public indirect enum Value: Sendable, Equatable {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([Value])
    case object(JSONLine)
  }

  public private(set) var members: [(key: String, value: Value)] = []

  public init(_ members: KeyValuePairs<String, Value>) {
    self.members = members.map { ($0.key, $0.value) }
  }

  public init(_ members: [(key: String, value: Value)]) {
    self.members = members
  }

  public subscript(key: String) -> Value? {
    members.first { $0.key == key }?.value
  }

  public static func == (a: JSONLine, b: JSONLine) -> Bool {
    a.members.elementsEqual(b.members) { $0.key == $1.key && $0.value == $1.value }
  }

  public var description: String {
    var out = "{"
    for (index, member) in members.enumerated() {
      if index > 0 { out += "," }
      Self.append(string: member.key, to: &out)
      out += ":"
      Self.append(member.value, to: &out)
    }
    return out + "}"
  }

  private static func append(_ value: Value, to out: inout String) {
    switch value {
    case .string(let text): append(string: text, to: &out)
    case .int(let number): out += String(number)
    case .number(let number): out += number.isFinite ? "\(number)" : "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .null: out += "null"
    case .array(let values):
      out += "["
      for (index, value) in values.enumerated() {
        if index > 0 { out += "," }
        append(value, to: &out)
      }
      out += "]"
    case .object(let line): out += line.description
    }
  }

  private static func append(string: String, to out: inout String) {
    out += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      // What the sanitizer escapes (controls, bidi controls, invisible and line-splitting
      // characters) as JSON escapes: a script reads the same text, a terminal shows no
      // raw control.
      case _ where PrintableText.isControl(scalar): out += PrintableText.jsonEscape(scalar)
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
