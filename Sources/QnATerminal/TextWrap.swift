/// Word wrapping by display columns, for text that is already sanitized.
public enum TextWrap {
  /// Breaks `text` into lines of at most `width` columns: at spaces where it can, inside a
  /// word (between characters, never inside one) where a word is wider than a line.
  public static func lines(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    // Where the line could break: just after its last space.
    var breakIndex: String.Index?
    var widthAtBreak = 0
    for character in text {
      let characterWidth = TextWidth.of(character)
      if lineWidth + characterWidth > width, character == " " {
        // A space at the end of a line is the break itself.
        lines.append(line)
        (line, lineWidth, breakIndex) = ("", 0, nil)
        continue
      }
      while lineWidth + characterWidth > width, !line.isEmpty {
        if let index = breakIndex {
          lines.append(String(line[..<index]).trimmingTrailingSpaces())
          line = String(line[index...])
          lineWidth -= widthAtBreak
        } else {
          lines.append(line)
          (line, lineWidth) = ("", 0)
        }
        breakIndex = nil
      }
      if line.isEmpty && character == " " && !lines.isEmpty { continue }
      line.append(character)
      lineWidth += characterWidth
      if character == " " {
        breakIndex = line.endIndex
        widthAtBreak = lineWidth
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}

extension String {
  func trimmingTrailingSpaces() -> String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}
