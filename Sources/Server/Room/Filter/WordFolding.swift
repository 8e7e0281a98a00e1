import Foundation

/// How the word filter reads text: lower case, accents off, and the letters people write as
/// digits or signs read back as letters; whole words only. The same folding applies to a
/// list's entries and to a question, so that "Café", "cafe" and "c@fe" are one word.
enum WordFolding {
  /// Signs that stand for letters inside a word (`1` and `!` and `|` for either `i` or `l`).
  static let substitutes: [Character: [Character]] = [
    "0": ["o"], "1": ["i", "l"], "!": ["i", "l"], "|": ["i", "l"], "3": ["e"], "4": ["a"],
    "@": ["a"], "5": ["s"], "$": ["s"], "7": ["t"], "+": ["t"],
  ]
  /// Letters without a decomposition, written out as the languages' readers spell them.
  static let spelledOut: [Character: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
    "ı": "i",
  ]
  /// The most ambiguous signs one word may have read both ways: each doubles its readings.
  static let maxAmbiguous = 3
  /// The longest word, folded, that can match: no entry folds longer. A longer word in a
  /// question is no entry's, and is not read (its readings would cost for nothing).
  static let maxWordLength = 128

  /// The words of `text`, each as the readings it may have (one, unless it has ambiguous
  /// signs), in order. A sign at a word's edge may be punctuation ("why!") or a letter
  /// ("@ss"): both readings are kept.
  static func words(_ text: String) -> [[String]] {
    tokens(text).map(readings)
  }

  /// `text` cut into words: runs of letters, digits and the substitute signs; apostrophes
  /// inside a word are dropped ("don't" is "dont"); everything else separates.
  static func tokens(_ text: String) -> [String] {
    var tokens: [String] = []
    var current = ""
    for character in plain(text) {
      if character.isLetter || character.isNumber || substitutes[character] != nil {
        current.append(character)
      } else if character == "'" || character == "’", !current.isEmpty {
        continue
      } else if !current.isEmpty {
        tokens.append(current)
        current = ""
      }
    }
    if !current.isEmpty { tokens.append(current) }
    return tokens
  }

  /// Lower case, accents and other marks taken off, invisible characters (zero-width
  /// spaces and joiners, soft hyphens: nothing a reader sees) dropped, letters without a
  /// decomposition spelled out.
  static func plain(_ text: String) -> String {
    // Most questions are ASCII: nothing to decompose, nothing invisible but controls.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.lowercased() }
    let decomposed = text.lowercased().decomposedStringWithCompatibilityMapping
    var plain = ""
    plain.reserveCapacity(decomposed.utf8.count)
    for scalar in decomposed.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .format: continue
      default: break
      }
      // Letters that draw nothing (the Hangul fillers): a word split by one reads whole.
      if scalar.properties.isDefaultIgnorableCodePoint { continue }
      let character = Character(scalar)
      if let spelled = spelledOut[character] {
        plain += spelled
      } else {
        plain.append(character)
      }
    }
    return plain
  }

  /// The readings of one word in a question: its signs read as letters, and, when it has
  /// signs at its edges, the word without those at its start, at its end, or both (they may
  /// be punctuation). None for a word longer than any entry.
  static func readings(_ token: String) -> [String] {
    guard token.count <= maxWordLength else { return [] }
    // Most words have no sign in them: one reading, themselves.
    if !token.contains(where: { substitutes[$0] != nil }) { return [token] }
    let isEdgeSign = { (character: Character) in
      substitutes[character] != nil && !character.isNumber
    }
    let withoutStart = String(token.drop(while: isEdgeSign))
    let withoutEnd = String(token.reversed().drop(while: isEdgeSign).reversed())
    let withoutBoth = String(withoutStart.reversed().drop(while: isEdgeSign).reversed())
    var readings: Set<String> = []
    for variant in Set([token, withoutStart, withoutEnd, withoutBoth]) where !variant.isEmpty {
      readings.formUnion(substituted(variant))
    }
    return readings.sorted()
  }

  /// `token` with each sign read as a letter: both readings for the first `maxAmbiguous`
  /// ambiguous ones, the first after them (at most 8 readings). Built in place: linear in
  /// the word's length.
  static func substituted(_ token: String) -> [String] {
    var readings: [[Character]] = [[]]
    readings[0].reserveCapacity(token.count)
    var ambiguous = 0
    for character in token {
      guard let letters = substitutes[character] else {
        for index in readings.indices { readings[index].append(character) }
        continue
      }
      if letters.count > 1 { ambiguous += 1 }
      if letters.count == 1 || ambiguous > maxAmbiguous {
        for index in readings.indices { readings[index].append(letters[0]) }
      } else {
        let others = readings.map { $0 + [letters[1]] }
        for index in readings.indices { readings[index].append(letters[0]) }
        readings += others
      }
    }
    return readings.map { String($0) }
  }
}
