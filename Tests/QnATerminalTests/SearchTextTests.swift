import Foundation
import Testing

@testable import QnATerminal

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

  @Test func lettersWithStrokesAndSharpSFoundToo() {
    // Foundation finds neither: Ł, ø and ß have no accent to take off.
    #expect(SearchText.matcher(for: "lodz")("Łódź, Poland"))
    #expect(SearchText.matcher(for: "zazolc")("Zażółć gęślą jaźń"))
    #expect(SearchText.matcher(for: "Ø")("Smørrebrød"))
    #expect(SearchText.matcher(for: "STRASSE")("Über die Straße"))
    #expect(!SearchText.matcher(for: "lodz")("Krakow"))
  }
}
