/// A catalogue's `Plural-Forms: … plural=EXPRESSION;`: which plural form a count takes, as
/// gettext evaluates it (C's integer operators on `n`). Parsed once; a rule that does not
/// parse is English's (`n != 1`). Bounded: a rule longer than 500 characters or nested more
/// than 50 deep is refused.
package struct PluralRule: Sendable {
  indirect enum Node: Sendable {
    case number(Int)
    case n
    case not(Node)
    case binary(String, Node, Node)
    case choice(Node, Node, Node)
  }

  let root: Node
  static let english = PluralRule(root: .binary("!=", .n, .number(1)))

  init(root: Node) { self.root = root }

  /// From the header's `Plural-Forms` value, e.g. `nplurals=2; plural=(n != 1);`.
  package init(header: String) {
    guard let start = header.range(of: "plural=", options: .backwards), header.count <= 500
    else {
      self = .english
      return
    }
    let text = header[start.upperBound...].prefix { $0 != ";" }
    var parser = Parser(tokens: Self.tokens(String(text)))
    if let node = parser.choice(depth: 0), parser.index == parser.tokens.count {
      root = node
    } else {
      self = .english
    }
  }

  package func form(_ count: Int) -> Int { max(0, Self.evaluate(root, count)) }

  private static func evaluate(_ node: Node, _ n: Int) -> Int {
    switch node {
    case .number(let value): return value
    case .n: return n
    case .not(let inner): return evaluate(inner, n) == 0 ? 1 : 0
    case .choice(let test, let yes, let no):
      return evaluate(test, n) != 0 ? evaluate(yes, n) : evaluate(no, n)
    case .binary(let op, let left, let right):
      let a = evaluate(left, n)
      // Short-circuit as C does.
      if op == "&&" { return a != 0 && evaluate(right, n) != 0 ? 1 : 0 }
      if op == "||" { return a != 0 || evaluate(right, n) != 0 ? 1 : 0 }
      let b = evaluate(right, n)
      switch op {
      case "==": return a == b ? 1 : 0
      case "!=": return a != b ? 1 : 0
      case "<": return a < b ? 1 : 0
      case "<=": return a <= b ? 1 : 0
      case ">": return a > b ? 1 : 0
      case ">=": return a >= b ? 1 : 0
      case "+": return a &+ b
      case "-": return a &- b
      case "*": return a &* b
      // Int.min / -1 overflows: wrapped, as everything here, never a trap.
      case "/": return b == 0 ? 0 : a.dividedReportingOverflow(by: b).partialValue
      case "%": return b == 0 ? 0 : a.remainderReportingOverflow(dividingBy: b).partialValue
      default: return 0
      }
    }
  }

  static func tokens(_ text: String) -> [String] {
    var tokens: [String] = []
    var characters = Array(text)[...]
    while let first = characters.first {
      if first.isWhitespace {
        characters = characters.dropFirst()
      } else if first.isNumber {
        let digits = characters.prefix { $0.isNumber }
        tokens.append(String(digits))
        characters = characters.dropFirst(digits.count)
      } else {
        let two = String(characters.prefix(2))
        let token = ["==", "!=", "<=", ">=", "&&", "||"].contains(two) ? two : String(first)
        tokens.append(token)
        characters = characters.dropFirst(token.count)
      }
    }
    return tokens
  }

  /// Recursive descent in C's precedence: `?:`, `||`, `&&`, equality, relation, additive,
  /// multiplicative, unary `!`, then numbers, `n` and parentheses.
  struct Parser {
    let tokens: [String]
    var index = 0
    static let levels: [[String]] = [
      ["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"],
    ]

    mutating func choice(depth: Int) -> Node? {
      guard depth < 50, let test = binary(level: 0, depth: depth + 1) else { return nil }
      guard peek == "?" else { return test }
      index += 1
      guard let yes = choice(depth: depth + 1), peek == ":" else { return nil }
      index += 1
      guard let no = choice(depth: depth + 1) else { return nil }
      return .choice(test, yes, no)
    }

    mutating func binary(level: Int, depth: Int) -> Node? {
      guard level < Self.levels.count else { return unary(depth: depth) }
      guard var left = binary(level: level + 1, depth: depth) else { return nil }
      while let op = peek, Self.levels[level].contains(op) {
        index += 1
        guard let right = binary(level: level + 1, depth: depth) else { return nil }
        left = .binary(op, left, right)
      }
      return left
    }

    mutating func unary(depth: Int) -> Node? {
      guard depth < 50, let token = peek else { return nil }
      index += 1
      if token == "!" { return unary(depth: depth + 1).map { .not($0) } }
      if token == "n" { return .n }
      if let value = Int(token) { return .number(value) }
      if token == "(" {
        guard let inner = choice(depth: depth + 1), peek == ")" else { return nil }
        index += 1
        return inner
      }
      return nil
    }

    var peek: String? { index < tokens.count ? tokens[index] : nil }
  }
}
