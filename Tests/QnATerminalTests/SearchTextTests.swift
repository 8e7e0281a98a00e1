import Foundation
import QnATerminal
import Testing

/// The room's search without Foundation finds what Foundation's case- and
/// diacritic-insensitive search finds, and letters with strokes too.
@Suite("Search text")
struct SearchTextTests {
  static let texts = [
    "Café au lait?", "CAFÉ", "Cafe\u{301} decomposed", "Über die Straße", "ÜBER", "Ça va?",
    "¿Por qué España?", "Niño pequeño", "Gęślą jaźń", "Tiếng Việt có dấu", "Йод и Їжак",
    "Ελληνικά με τόνους", "Ёлка и ель", "naïve coöperation", "Ångström", "plain ascii",
  ]
  static let needles = [
    "cafe", "CAFÉ", "über", "uber", "ca va", "por que", "espana", "nino", "jazn", "gesla",
    "tieng viet", "ελληνικα", "τονους", "елка", "naive", "cooperation", "angstrom", "ASCII",
    "иод", "ижак", "xyz",
  ]

  @Test func agreesWithFoundationsInsensitiveSearch() {
    for text in Self.texts {
      for needle in Self.needles {
        let foundation =
          text.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        #expect(
          SearchText.matcher(for: needle)(text) == foundation, "\(needle) in \(text)")
      }
    }
  }

  /// Vowel signs made of two signs (Oriya AI, Kannada, Sinhala, Balinese) and Tibetan's
  /// letters with a subjoined letter: no letter under an accent to find, so left as written.
  static let composedOfSigns: [ClosedRange<UInt32>] = [
    0xB48...0xB48, 0xC80...0xCFF, 0xD80...0xDFF, 0xF00...0xFFF, 0x1B00...0x1B7F,
  ]

  /// Every letter below U+3100 folds the same in upper and in lower case, and composed and
  /// decomposed (Foundation's NFD as the oracle).
  @Test func caseAndCompositionDoNotMatter() {
    var caseDiffers: [String] = []
    var compositionDiffers: [String] = []
    for value in UInt32(0x20)..<0x3100
    where !Self.composedOfSigns.contains(where: { $0 ~= value }) {
      guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic else { continue }
      let letter = String(scalar)
      if SearchText.folded(letter.uppercased()) != SearchText.folded(letter.lowercased()) {
        caseDiffers.append(letter)
      }
      if SearchText.folded(letter)
        != SearchText.folded(letter.decomposedStringWithCanonicalMapping)
      {
        compositionDiffers.append(letter)
      }
    }
    #expect(caseDiffers == [], "upper and lower case fold apart")
    #expect(compositionDiffers == [], "composed and decomposed fold apart")
  }

  @Test func aNeedleOfAccentsAloneIsNoFilter() {
    #expect(SearchText.matcher(for: "\u{301}\u{308}")("anything"))
  }

  @Test func lettersWithStrokesAndSharpSFoundToo() {
    // Foundation finds neither: Ł, ø and ß have no accent to take off.
    #expect(SearchText.matcher(for: "lodz")("Łódź, Poland"))
    #expect(SearchText.matcher(for: "zazolc")("Zażółć gęślą jaźń"))
    #expect(SearchText.matcher(for: "Ø")("Smørrebrød"))
    #expect(SearchText.matcher(for: "STRASSE")("Über die Straße"))
    #expect(SearchText.matcher(for: "strasse")("ÜBER DIE STRAẞE"))
    #expect(SearchText.matcher(for: "ɖ")("Ɖ"))
    #expect(SearchText.matcher(for: "か\u{3099}")("がっこう"))
    #expect(!SearchText.matcher(for: "lodz")("Krakow"))
  }
}
