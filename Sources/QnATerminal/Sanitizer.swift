import CNcurses
import CommandLineValues
import QnA

/// Makes text from the network safe to draw: what `PrintableText` escapes for logs, plus
/// anything the locale cannot print, comes out as visible escapes, never as bytes the
/// terminal would act on.
public enum Sanitizer {
  public static func forScreen(_ text: String) -> String {
    PrintableText.escaped(withoutDirectionMarks(text), where: needsEscaping)
  }

  static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value >= 0x20 && value < 0x7F { return false }
    return PrintableText.isControl(scalar) || qna_wcwidth(Int32(bitPattern: value)) < 0
  }

  /// The left-to-right, right-to-left and Arabic letter marks, dropped without a trace:
  /// ordinary in Arabic and Hebrew text, invisible, and shown escaped they are only noise.
  /// Not passed on: in a terminal that lays out bidirectional text a right-to-left mark is
  /// a strong character, which can reorder the digits and punctuation around it ("10 - 5")
  /// or turn a whole row, votes and all; and terminals disagree on their width. The
  /// embeddings, overrides and isolates stay escaped: they spoof. Logs and exports escape
  /// the marks too.
  static let directionMarks: Set<UInt32> = [0x200E, 0x200F, 0x061C]

  static func withoutDirectionMarks(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { directionMarks.contains($0.value) }) else {
      return text
    }
    return String(
      String.UnicodeScalarView(text.unicodeScalars.filter { !directionMarks.contains($0.value) }))
  }
}
