/// Trimming as Foundation's `trimmingCharacters(in:)` does, without Foundation (which qna and
/// wsc do not link: it brings ICU's 34 MB).
extension StringProtocol {
  /// Without leading and trailing white space and line breaks (Unicode's White_Space, and
  /// the zero width space: Foundation's `.whitespacesAndNewlines`).
  public func trimmingWhiteSpace() -> String {
    trimming { $0.properties.isWhitespace || $0 == "\u{200B}" }
  }

  /// Without leading and trailing spaces and tabs, line breaks kept (the space separators,
  /// the tab and the zero width space: Foundation's `.whitespaces`).
  public func trimmingSpaces() -> String {
    trimming {
      $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator
    }
  }

  private func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !isTrimmed($0) })!
    var trimmed = String.UnicodeScalarView()
    trimmed.append(contentsOf: scalars[first...last])
    return String(trimmed)
  }
}
