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
    return PrintableText.isControl(scalar) || qna_wcwidth(Int32(bitPattern: value)) < 0
  }
}
