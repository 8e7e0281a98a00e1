/// A script as the server serves it: without its comments, indentation and blank lines, which
/// are a third of the pages' scripts and mean nothing to a browser. Every line break between
/// two lines of code stays, so automatic semicolon insertion reads the script as it read the
/// source, and so do the line numbers of an error, near enough to find it. Strings, template
/// literals (their text verbatim, their `${…}` read as code) and regular expressions are
/// copied as they are; a `/` begins a regular expression where an operand is expected, as the
/// grammar has it for every script here (`ScriptShrinkingTests` shows the cases). Names are
/// not shortened: the served script stays readable in a browser's tools.
package struct ScriptShrinking {
  package enum Failure: Error, Equatable {
    /// A string, template, comment or regular expression that the text ends inside (or, for
    /// a string or a regular expression, that a line ends inside).
    case unterminated(String, offset: Int)
  }

  /// `text`, shrunk.
  package static func script(_ text: String) throws(Failure) -> String {
    var shrinking = ScriptShrinking(Array(text.utf8))
    try shrinking.code(inSubstitution: false)
    shrinking.endLine()
    return String(decoding: shrinking.output, as: UTF8.self)
  }

  let input: [UInt8]
  var at = 0
  var output: [UInt8] = []
  /// Whether a `/` here begins a regular expression rather than a division.
  var operandExpected = true
  /// Whether the last token was `if`, `while`, `for` or `with`, whose `(…)` an operand
  /// follows (`if (a) /b/.test(c)`), and, for each `(` still open, whether it was theirs.
  var afterControlWord = false
  var openParentheses: [Bool] = []
  /// Whether the last token was a `.`: a word after it names a property, never a keyword.
  var afterDot = false

  init(_ input: [UInt8]) {
    self.input = input
    output.reserveCapacity(input.count)
  }

  /// Words after which an operand, so a regular expression, may come.
  static let operandKeywords: Set<String> = [
    "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case",
    "do", "else", "yield", "await",
  ]

  static let controlKeywords: Set<String> = ["if", "while", "for", "with"]

  /// Code up to the end of the text, or, in a template's `${…}`, up to its closing brace
  /// (not consumed).
  mutating func code(inSubstitution: Bool) throws(Failure) {
    var depth = 0
    while at < input.count {
      let byte = input[at]
      switch byte {
      case UInt8(ascii: "\n"):
        endLine()
        at += 1
        while at < input.count, Self.isBlank(input[at]) { at += 1 }
      case _ where Self.isBlank(byte):
        while at < input.count, Self.isBlank(input[at]) { at += 1 }
        if let last = output.last, last != UInt8(ascii: "\n"), last != UInt8(ascii: " ") {
          output.append(UInt8(ascii: " "))
        }
      case UInt8(ascii: "/"):
        try slash()
      default:
        let control = afterControlWord
        let dot = afterDot
        afterControlWord = false
        afterDot = false
        if try !token(
          byte, afterControlWord: control, afterDot: dot, inSubstitution: inSubstitution,
          depth: &depth)
        {
          return
        }
      }
    }
  }

  /// One token that is not a comment or a blank; `false` at the `}` that ends a substitution
  /// (not consumed).
  mutating func token(
    _ byte: UInt8, afterControlWord control: Bool, afterDot dot: Bool, inSubstitution: Bool,
    depth: inout Int
  ) throws(Failure) -> Bool {
    switch byte {
    case UInt8(ascii: "'"), UInt8(ascii: "\""):
      try quoted(by: byte, what: "string")
      operandExpected = false
    case UInt8(ascii: "`"):
      try template()
      operandExpected = false
    case UInt8(ascii: "{"):
      depth += 1
      copy()
      operandExpected = true
    case UInt8(ascii: "}"):
      if inSubstitution && depth == 0 { return false }
      depth -= 1
      copy()
      operandExpected = true
    case UInt8(ascii: "("):
      openParentheses.append(control)
      copy()
      operandExpected = true
    case UInt8(ascii: ")"):
      copy()
      operandExpected = openParentheses.popLast() ?? false
    case UInt8(ascii: "]"):
      copy()
      operandExpected = false
    case UInt8(ascii: "."):
      let spread = at + 2 < input.count && input[at + 1] == byte && input[at + 2] == byte
      copy(spread ? 3 : 1)
      afterDot = !spread
      operandExpected = true
    case UInt8(ascii: "+"),
      UInt8(ascii: "-")
    where at + 1 < input.count && input[at + 1] == byte:
      // `a++ / 2` divides (postfix, after an operand); `x = ++a` expects one.
      copy(2)
    case _ where Self.isWordByte(byte):
      let start = at
      while at < input.count, Self.isWordByte(input[at]) { at += 1 }
      output += input[start..<at]
      let word = String(decoding: input[start..<at], as: UTF8.self)
      operandExpected = !dot && Self.operandKeywords.contains(word)
      afterControlWord = !dot && Self.controlKeywords.contains(word)
    default:
      copy()
      operandExpected = true
    }
    return true
  }

  /// A comment (left out), a regular expression (copied), or a division.
  mutating func slash() throws(Failure) {
    let next = at + 1 < input.count ? input[at + 1] : 0
    if next == UInt8(ascii: "/") {
      // To the line's end: a line feed or carriage return, or U+2028 or U+2029 (E2 80 A8/A9),
      // which end it as well and are left out with it.
      while at < input.count, input[at] != UInt8(ascii: "\n"), input[at] != UInt8(ascii: "\r") {
        if input[at] == 0xE2, at + 2 < input.count, input[at + 1] == 0x80,
          input[at + 2] == 0xA8 || input[at + 2] == 0xA9
        {
          at += 3
          endLine()
          return
        }
        at += 1
      }
    } else if next == UInt8(ascii: "*") {
      let start = at
      at += 2
      var spansLines = false
      while at + 1 < input.count,
        !(input[at] == UInt8(ascii: "*") && input[at + 1] == UInt8(ascii: "/"))
      {
        if input[at] == UInt8(ascii: "\n") { spansLines = true }
        at += 1
      }
      guard at + 1 < input.count else { throw .unterminated("comment", offset: start) }
      at += 2
      // What the comment stood between stays apart: a line break ends a statement.
      if spansLines {
        endLine()
      } else if let last = output.last, last != UInt8(ascii: "\n"), last != UInt8(ascii: " ") {
        output.append(UInt8(ascii: " "))
      }
    } else {
      afterControlWord = false
      afterDot = false
      if operandExpected {
        try regularExpression()
        operandExpected = false
      } else {
        copy()
        operandExpected = true
      }
    }
  }

  /// `'…'` or `"…"`, whose escapes (a line continuation too) are copied whole.
  mutating func quoted(by quote: UInt8, what: String) throws(Failure) {
    let start = at
    copy()
    while at < input.count {
      let byte = input[at]
      if byte == UInt8(ascii: "\\") {
        copy(2)
      } else if byte == quote {
        copy()
        return
      } else if byte == UInt8(ascii: "\n") {
        break
      } else {
        copy()
      }
    }
    throw .unterminated(what, offset: start)
  }

  /// `/…/`, with its classes (`[/]` holds a slash); its flags follow as a word.
  mutating func regularExpression() throws(Failure) {
    let start = at
    copy()
    var inClass = false
    while at < input.count {
      let byte = input[at]
      switch byte {
      case UInt8(ascii: "\\"): copy(2)
      case UInt8(ascii: "["):
        inClass = true
        copy()
      case UInt8(ascii: "]"):
        inClass = false
        copy()
      case UInt8(ascii: "/") where !inClass:
        copy()
        return
      case UInt8(ascii: "\n"): throw .unterminated("regular expression", offset: start)
      default: copy()
      }
    }
    throw .unterminated("regular expression", offset: start)
  }

  /// `` `…` ``: its text verbatim, line breaks and indentation too; each `${…}` as code.
  mutating func template() throws(Failure) {
    let start = at
    copy()
    while at < input.count {
      let byte = input[at]
      if byte == UInt8(ascii: "\\") {
        copy(2)
      } else if byte == UInt8(ascii: "`") {
        copy()
        return
      } else if byte == UInt8(ascii: "$"), at + 1 < input.count, input[at + 1] == UInt8(ascii: "{")
      {
        copy(2)
        operandExpected = true
        try code(inSubstitution: true)
        guard at < input.count else { break }
        copy()  // the substitution's `}`
      } else {
        copy()
      }
    }
    throw .unterminated("template", offset: start)
  }

  /// A line ends: without the spaces before it, and only once after another.
  mutating func endLine() {
    while output.last == UInt8(ascii: " ") { output.removeLast() }
    if let last = output.last, last != UInt8(ascii: "\n") { output.append(UInt8(ascii: "\n")) }
  }

  mutating func copy(_ count: Int = 1) {
    let end = min(at + count, input.count)
    output += input[at..<end]
    at = end
  }

  static func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  /// A byte of a name, a keyword or a number (any byte of a character past ASCII, too).
  static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
      return true
    default: return false
    }
  }
}
