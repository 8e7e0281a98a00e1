import CNcurses

/// Terminal columns, measured with the C library's `wcwidth` as ncurses itself measures, so
/// that the grid and the screen agree on where every character lands. Needs a UTF-8 locale
/// (`setlocale(LC_ALL, "")` first).
public enum TextWidth {
  /// Columns of one scalar: 0 for combining marks, 2 for wide ones, and 1 for anything the
  /// locale calls non-printable (the sanitizer escapes those before they get here).
  public static func of(_ scalar: Unicode.Scalar) -> Int {
    if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
    let width = Int(qna_wcwidth(Int32(bitPattern: scalar.value)))
    return width < 0 ? 1 : width
  }

  public static func of(_ character: Character) -> Int {
    character.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  public static func of<S: StringProtocol>(_ text: S) -> Int {
    text.unicodeScalars.reduce(0) { $0 + of($1) }
  }

  /// The longest prefix of `text` that fits in `columns`, ending in "…" when cut.
  public static func truncate(_ text: String, to columns: Int) -> String {
    guard columns > 0 else { return "" }
    guard of(text) > columns else { return text }
    var kept = ""
    var used = 0
    for character in text {
      let width = of(character)
      if used + width > columns - 1 { break }
      kept.append(character)
      used += width
    }
    return kept + "…"
  }
}
