import CNcurses
import CommandLineValues
import QnA

/// Makes text from the network safe to draw: what `PrintableText` escapes for logs, plus
/// anything the locale cannot print, comes out as visible escapes, never as bytes the
/// terminal would act on.
public enum Sanitizer {
  public static func forScreen(_ text: String) -> String {
    PrintableText.escaped(text, where: needsEscaping)
  }

  static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value >= 0x20 && value < 0x7F { return false }
    if directionMarks.contains(value) { return qna_wcwidth(Int32(bitPattern: value)) < 0 }
    return PrintableText.isControl(scalar) || qna_wcwidth(Int32(bitPattern: value)) < 0
  }

  /// The left-to-right, right-to-left and Arabic letter marks: ordinary in Arabic and Hebrew
  /// text, zero-width, and unable to reorder what surrounds them as the embeddings, overrides
  /// and isolates can (those stay escaped: they spoof). On the screen they pass through, to a
  /// terminal that lays out bidirectional text; logs and exports still escape them.
  static let directionMarks: Set<UInt32> = [0x200E, 0x200F, 0x061C]
}
