/// Text from the network made safe for a log line, stderr or a terminal: control characters
/// (C0, DEL, C1), which carry escape sequences, bidi controls, which reorder what follows
/// them, and the invisible characters that hide text or split lines (zero-width space, the
/// byte order mark, the line and paragraph separators) come out as visible escapes
/// (`\e[31m`, `\u{202E}`). One line stays one line. The project's one sanitizer: every
/// output of text from attendees applies it (docs/server.md, "Text from attendees").
public enum PrintableText {
  public static func escaped(_ text: some StringProtocol) -> String {
    escaped(text, where: isControl)
  }

  /// Escapes the scalars `needsEscaping` picks; the terminal adds those its locale cannot draw.
  public static func escaped(
    _ text: some StringProtocol, where needsEscaping: (Unicode.Scalar) -> Bool
  ) -> String {
    guard text.unicodeScalars.contains(where: needsEscaping) else { return String(text) }
    var safe = ""
    safe.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      if needsEscaping(scalar) {
        safe += escape(scalar)
      } else {
        safe.unicodeScalars.append(scalar)
      }
    }
    return safe
  }

  /// What `isControl` picks: C0 and C1 controls, DEL, the Arabic letter mark, the zero-width
  /// space, the bidi marks, the line and paragraph separators, the bidi embeddings and
  /// overrides, the isolates, and the byte order mark. (Zero-width joiners stay: emoji and
  /// scripts need them.) The one list: the presenter page's script is built from it too.
  public static let controlRanges: [ClosedRange<UInt32>] = [
    0x00...0x1F, 0x7F...0x9F, 0x061C...0x061C, 0x200B...0x200B, 0x200E...0x200F,
    0x2028...0x202E, 0x2066...0x2069, 0xFEFF...0xFEFF,
  ]

  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value >= 0x20 && value < 0x7F { return false }
    return controlRanges.contains { $0.contains(value) }
  }

  /// A picked scalar (all are in the Basic Multilingual Plane) as a JSON escape, `\u202e`.
  public static func jsonEscape(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: false)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// The same, keeping line breaks and tabs: for outputs whose format holds them as data
  /// (a quoted CSV cell).
  public static func escapedKeepingLines(_ text: some StringProtocol) -> String {
    escaped(text) { isControl($0) && $0 != "\n" && $0 != "\r" && $0 != "\t" }
  }

  public static func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\u{1B}": return "\\e"
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    default:
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return scalar.value <= 0xFF
        ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex : "\\u{\(hex)}"
    }
  }
}
