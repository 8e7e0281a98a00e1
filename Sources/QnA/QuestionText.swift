/// What makes a question's text acceptable, the same on both ends: the client tells the
/// attendee at once, the server refuses what a client of another make sends.
public enum QuestionText {
  /// Marks one character may carry: emoji sequences need about ten scalars; a "Zalgo" text
  /// stacks hundreds, to smear over the lines around it on every screen.
  public static let maxScalarsPerCharacter = 16

  public enum Problem: Sendable, Hashable {
    /// Nothing visible: whitespace, zero-width and format characters only.
    case empty
    case tooLong(characters: Int, limit: Int)
    /// A character stacked with more marks than any writing needs.
    case overloadedCharacter
  }

  /// Why `text` (already trimmed) cannot be a question, or `nil` if it can.
  public static func problem(with text: String, maxLength: Int) -> Problem? {
    guard text.unicodeScalars.contains(where: isVisible) else { return .empty }
    let characters = text.count
    if characters > maxLength { return .tooLong(characters: characters, limit: maxLength) }
    if text.contains(where: { $0.unicodeScalars.count > maxScalarsPerCharacter }) {
      return .overloadedCharacter
    }
    return nil
  }

  /// Not whitespace, a control, a format character (zero-width space and joiners, bidi
  /// marks, the byte-order mark) or a mark standing alone.
  static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.properties.isWhitespace { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .nonspacingMark, .enclosingMark, .spacingMark, .unassigned,
      .surrogate, .lineSeparator, .paragraphSeparator, .spaceSeparator:
      return false
    default:
      // U+2800 BRAILLE PATTERN BLANK and the Hangul fillers draw nothing either.
      return ![0x2800, 0x115F, 0x1160, 0x3164, 0xFFA0].contains(scalar.value)
    }
  }
}
