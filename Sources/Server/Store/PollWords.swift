import Foundation
import QnA

/// How a word cloud's entries are counted: folded so that "Café", "cafe" and " CAFE! " are
/// one word.
package enum PollWords {
  /// An open text's answer as the store keys it: composed (NFC), so that two spellings of one
  /// text (an accent as one character, or as a letter and a mark) are one entry, byte for
  /// byte in the database as they are equal in Swift.
  package static func composed(_ text: String) -> String {
    text.precomposedStringWithCanonicalMapping
  }

  /// `entry` as it is counted: lower case, accents and other marks off, controls and
  /// invisible characters gone, spaces one between words, punctuation and symbols off its
  /// ends; `nil` when nothing is left, or it is longer than `PollRules.maxWordLength`
  /// characters or `maxWordBytes` bytes. A long entry costs no more than its first bytes:
  /// past eight times the longest, its length alone refuses it.
  package static func fold(_ entry: String) -> String? {
    guard entry.utf8.count <= PollRules.maxWordBytes * 8 else { return nil }
    // Lower case after the compatibility forms, whose letters may be capitals (a bold 𝐃 is D).
    let decomposed = entry.decomposedStringWithCompatibilityMapping.lowercased()
    var folded = ""
    var space = false
    for scalar in decomposed.unicodeScalars {
      let properties = scalar.properties
      switch properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .spacingMark, .format, .control, .unassigned,
        .surrogate, .privateUse, .lineSeparator, .paragraphSeparator:
        continue
      default: break
      }
      if properties.isWhitespace {
        space = !folded.isEmpty
        continue
      }
      if space { folded.unicodeScalars.append(" ") }
      space = false
      folded.unicodeScalars.append(scalar)
    }
    let edges = CharacterSet.punctuationCharacters.union(.symbols).union(.whitespaces)
    let trimmed = folded.trimmingCharacters(in: edges)
    guard !trimmed.isEmpty, trimmed.count <= PollRules.maxWordLength,
      trimmed.utf8.count <= PollRules.maxWordBytes
    else { return nil }
    return trimmed
  }
}
