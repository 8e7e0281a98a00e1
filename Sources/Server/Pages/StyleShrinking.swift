/// A style sheet as the server serves it: without its comments, indentation and blank lines.
/// Whitespace elsewhere is one space, as CSS reads any run of it (a descendant selector needs
/// it); strings are copied as they are.
package enum StyleShrinking {
  package static func styleSheet(_ text: String) throws(ScriptShrinking.Failure) -> String {
    let input = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var at = 0
    /// The whitespace just passed: a line break if it held one, else a space.
    var pending: UInt8?
    func flush() {
      if let gap = pending, !output.isEmpty { output.append(gap) }
      pending = nil
    }
    while at < input.count {
      let byte = input[at]
      if ScriptShrinking.isBlank(byte) || byte == UInt8(ascii: "\n") {
        if byte == UInt8(ascii: "\n") {
          pending = byte
        } else if pending == nil {
          pending = UInt8(ascii: " ")
        }
        at += 1
      } else if byte == UInt8(ascii: "/"), at + 1 < input.count, input[at + 1] == UInt8(ascii: "*")
      {
        let start = at
        at += 2
        while at + 1 < input.count,
          !(input[at] == UInt8(ascii: "*") && input[at + 1] == UInt8(ascii: "/"))
        {
          at += 1
        }
        guard at + 1 < input.count else { throw .unterminated("comment", offset: start) }
        at += 2
        // CSS reads a comment as nothing, but two words it kept apart stay apart (`0/**/auto`
        // is two values; `and/**/(` is not a function); `.a/**/.b` stays one selector.
        if pending == nil, let last = output.last, Self.isWord(last), at < input.count,
          Self.isWord(input[at]) || input[at] == UInt8(ascii: "(")
        {
          pending = UInt8(ascii: " ")
        }
      } else if byte == UInt8(ascii: "\\") {
        // An escape (`\ ` is a space in a name), copied with what it escapes.
        flush()
        output += input[at..<min(at + 2, input.count)]
        at += 2
      } else if byte == UInt8(ascii: "("), output.count >= 3,
        String(decoding: output.suffix(3), as: UTF8.self).lowercased() == "url",
        let close = input[at...].firstIndex(of: UInt8(ascii: ")")),
        !input[at..<close].contains(UInt8(ascii: "'")),
        !input[at..<close].contains(UInt8(ascii: "\""))
      {
        // An unquoted `url(…)`, whose `/*` or `//` is the address's: copied as it is.
        flush()
        output += input[at...close]
        at = close + 1
      } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
        flush()
        let start = at
        output.append(byte)
        at += 1
        while at < input.count, input[at] != byte, input[at] != UInt8(ascii: "\n") {
          if input[at] == UInt8(ascii: "\\"), at + 1 < input.count {
            output.append(input[at])
            at += 1
          }
          output.append(input[at])
          at += 1
        }
        guard at < input.count, input[at] == byte else {
          throw .unterminated("string", offset: start)
        }
        output.append(byte)
        at += 1
      } else {
        flush()
        output.append(byte)
        at += 1
      }
    }
    if !output.isEmpty { output.append(UInt8(ascii: "\n")) }
    return String(decoding: output, as: UTF8.self)
  }

  /// A byte of a name, a number or a unit.
  static func isWord(_ byte: UInt8) -> Bool {
    ScriptShrinking.isWordByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "%")
  }
}
