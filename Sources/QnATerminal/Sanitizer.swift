import CNcurses

/// Makes text from the network safe to draw: control characters, escape sequences, bidi
/// overrides and anything the locale cannot print come out as visible escapes (`\e[31m`,
/// `\u{202E}`), never as bytes the terminal would act on.
public enum Sanitizer {
  public static func forScreen(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscaping) else { return text }
    var safe = ""
    safe.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard needsEscaping(scalar) else {
        safe.unicodeScalars.append(scalar)
        continue
      }
      safe += escaped(scalar)
    }
    return safe
  }

  static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value >= 0x20 && value < 0x7F { return false }
    if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
    // Bidi embeddings, overrides and isolates reorder what follows them on screen.
    if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
      || value == 0x200E || value == 0x200F || value == 0x061C
    {
      return true
    }
    return qna_wcwidth(Int32(bitPattern: value)) < 0
  }

  static func escaped(_ scalar: Unicode.Scalar) -> String {
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
