/// `host[:port]` with IPv6 literals in brackets, as proxy URLs and `NO_PROXY` write them.
enum HostPort {
  /// The host (brackets removed) and the port, or nil when either is malformed.
  static func parse(_ text: Substring, defaultPort: Int?) -> (host: String, port: Int)? {
    let host: Substring
    var portText: Substring?
    if text.first == "[" {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let after = text[text.index(after: close)...]
      if !after.isEmpty {
        guard after.first == ":" else { return nil }
        portText = after.dropFirst()
      }
      guard host.contains(":") else { return nil }
    } else if let colon = text.lastIndex(of: ":") {
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      if host.contains(":") { return nil }  // an IPv6 literal needs brackets
    } else {
      host = text
    }
    guard !host.isEmpty, host.allSatisfy(isHostCharacter) else { return nil }
    let port: Int
    if let portText {
      guard let value = parsePort(portText) else { return nil }
      port = value
    } else {
      guard let defaultPort else { return nil }
      port = defaultPort
    }
    return (String(host), port)
  }

  static func parsePort(_ text: Substring) -> Int? {
    guard (1...5).contains(text.count), text.allSatisfy(\.isASCIIDigit), let value = Int(text),
      (1...65535).contains(value)
    else { return nil }
    return value
  }

  static func format(host: String, port: Int) -> String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// Letters, digits and the punctuation of names and IP literals (with IPv6 zone ids);
  /// anything else (spaces, CR, LF, `/`, `@`) would change the meaning of a request line.
  private static func isHostCharacter(_ character: Character) -> Bool {
    guard character.isASCII else { return false }
    return character.isLetter || character.isNumber || "-._:%~".contains(character)
  }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}

/// `%41` → `A`, as in URL user info; nil for a malformed escape or bytes that are not UTF-8.
enum PercentDecoding {
  static func decode(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
