import QnAStore
import Testing

/// How a word cloud counts its entries: one word whatever its case, accents, compatibility
/// form (fullwidth, mathematical capitals) or the punctuation at its ends.
@Suite("The word cloud's folding")
struct PollWordsTests {
  @Test(arguments: [
    ("Café!", "cafe"), (" SWIFT ", "swift"), ("two  Words", "two words"),
    ("\u{FF24}\u{FF41}\u{FF52}\u{FF4E}", "darn"), ("\u{1D403}\u{1D400}\u{1D411}\u{1D40D}", "darn"),
  ])
  func entriesFoldToOneWord(_ entry: String, _ folded: String) {
    #expect(PollWords.fold(entry) == folded, "\(entry)")
  }
}
