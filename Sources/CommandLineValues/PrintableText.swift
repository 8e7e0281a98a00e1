/// Text from the network made safe for a log line, stderr or a terminal: control characters
/// (C0, DEL, C1), which carry escape sequences, and bidi controls, which reorder what follows
/// them, come out as visible escapes (`\e[31m`, `\u{202E}`). One line stays one line.
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

  /// C0 and C1 controls, DEL, and the bidi embeddings, overrides, isolates and marks.
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value >= 0x20 && value < 0x7F { return false }
    if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
    return (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
      || value == 0x200E || value == 0x200F || value == 0x061C
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
