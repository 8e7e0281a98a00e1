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
  /// Letters without a decomposition, written out as the languages' readers spell them; and
  /// Latin's small capitals (ᴀ ʙ ᴄ …, the "small text" that text generators offer), which no
  /// language writes words in, each as its letter.
  static let spelledOut: [Character: String] = [
    "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
    "ı": "i",
    "\u{1D00}": "a", "\u{0299}": "b", "\u{1D04}": "c", "\u{1D05}": "d", "\u{1D07}": "e",
    "\u{A730}": "f", "\u{0262}": "g", "\u{029C}": "h", "\u{026A}": "i", "\u{1D0A}": "j",
    "\u{1D0B}": "k", "\u{029F}": "l", "\u{1D0D}": "m", "\u{0274}": "n", "\u{1D0F}": "o",
    "\u{1D18}": "p", "\u{A7AF}": "q", "\u{0280}": "r", "\u{A731}": "s", "\u{1D1B}": "t",
    "\u{1D1C}": "u", "\u{1D20}": "v", "\u{1D21}": "w", "\u{028F}": "y", "\u{1D22}": "z",
  ]
  /// Letters drawn as symbols, with no compatibility form to read them by: negative circled
  /// (🅐) and negative squared (🅰) capitals and the regional indicators (🇦), each a run of
  /// A to Z.
  static let symbolAlphabets: [ClosedRange<UInt32>] = [
    0x1F150...0x1F169, 0x1F170...0x1F189, 0x1F1E6...0x1F1FF,
  ]
  /// Letters of other scripts drawn like Latin ones, read as those in a word that is a
  /// disguise (`undisguised`): "fr\u{0430}k" with a Cyrillic а is "frak". The clearest of
  /// Unicode's confusables, keyed by the small letter so that a word folds the same in either
  /// case; where the capital and the small letter look like different Latin ones, the more
  /// likely disguise wins (Greek Η and η read as h, υ as u).
  static let lookalikes: [Unicode.Scalar: Unicode.Scalar] = [
    // Cyrillic а в е і ј к м н о р с т у х ѕ һ ԁ ԛ ԝ ӏ ү
    "\u{0430}": "a", "\u{0432}": "b", "\u{0435}": "e", "\u{0456}": "i", "\u{0458}": "j",
    "\u{043A}": "k", "\u{043C}": "m", "\u{043D}": "h", "\u{043E}": "o", "\u{0440}": "p",
    "\u{0441}": "c", "\u{0442}": "t", "\u{0443}": "y", "\u{0445}": "x", "\u{0455}": "s",
    "\u{04BB}": "h", "\u{0501}": "d", "\u{051B}": "q", "\u{051D}": "w", "\u{04CF}": "l",
    "\u{04AF}": "y",
    // Greek α β ε ζ η ι κ μ ν ο ρ τ υ χ ω
    "\u{03B1}": "a", "\u{03B2}": "b", "\u{03B5}": "e", "\u{03B6}": "z", "\u{03B7}": "h",
    "\u{03B9}": "i", "\u{03BA}": "k", "\u{03BC}": "m", "\u{03BD}": "v", "\u{03BF}": "o",
    "\u{03C1}": "p", "\u{03C4}": "t", "\u{03C5}": "u", "\u{03C7}": "x", "\u{03C9}": "w",
    // Armenian օ ս հ ց.
    "\u{0585}": "o", "\u{057D}": "u", "\u{0570}": "h", "\u{0581}": "g",
    // Greek's final sigma (the lunate sigma ϲ's compatibility form), yot and small gamma.
    "\u{03C2}": "c", "\u{03F3}": "j", "\u{03B3}": "y",
    // Cherokee's letters drawn like Latin ones, as the small letters case folding makes of
    // them (Ꭺ is ꭺ): Unicode's confusables.
    "\u{AB70}": "d", "\u{AB71}": "r", "\u{AB72}": "t", "\u{AB75}": "i", "\u{AB79}": "y",
    "\u{AB7A}": "a", "\u{AB7B}": "j", "\u{AB7C}": "e", "\u{AB83}": "w", "\u{AB87}": "m",
    "\u{AB8B}": "h", "\u{AB8D}": "y", "\u{AB90}": "g", "\u{AB92}": "h", "\u{AB93}": "z",
    "\u{AB9F}": "b", "\u{ABA2}": "r", "\u{ABA4}": "w", "\u{ABA5}": "s", "\u{ABA9}": "v",
    "\u{ABAA}": "s", "\u{ABAE}": "l", "\u{ABAF}": "c", "\u{ABB2}": "p", "\u{ABB6}": "k",
    "\u{ABB7}": "d", "\u{13FB}": "g", "\u{13FC}": "b",
    // Latin's own alpha, script g, iota, gamma and v with hook: Latin letters, read as their
    // plain ones anywhere.
    "\u{0251}": "a", "\u{0261}": "g", "\u{0269}": "i", "\u{0263}": "y", "\u{028B}": "u",
  ]
  /// Look-alikes that no common word of their script has (Cyrillic ѕ, һ, ԁ, ԛ, ԝ, ӏ): a word
  /// with one is a disguise even when all its letters are of that script ("\u{0455}\u{04BB}it").
  /// Cherokee's look-alikes are telltales too: "fancy text" writes whole words in them, and a
  /// question in Cherokee reading as a listed English word is far less likely than that.
  static let telltales: Set<Unicode.Scalar> = Set(
    ["\u{0455}", "\u{04BB}", "\u{0501}", "\u{051B}", "\u{051D}", "\u{04CF}"]
      + ["\u{0251}", "\u{0261}", "\u{0269}", "\u{0263}", "\u{028B}"]
      + lookalikes.keys.filter { scalar in
        cherokeeSmallLetters.contains { $0.contains(scalar.value) }
      })
  /// Where Cherokee's small letters are.
  static let cherokeeSmallLetters: [ClosedRange<UInt32>] = [0xAB70...0xABBF, 0x13F8...0x13FD]

  /// `token` with its look-alikes read as Latin letters when it is a disguise: it has a Latin
  /// letter among them, or a telltale. A word wholly of another script stays as it is, so
  /// that Russian "\u{043A}\u{0430}\u{043A}" is not "kak", nor Greek "\u{03BA}\u{03B1}\u{03B9}"
  /// "kai", and an entry in those scripts matches itself. `always`: read them whatever the
  /// word (an entry's second reading, so that the entry disguised matches it too).
  static func undisguised(_ token: String, always: Bool = false) -> String {
    let scalars = token.unicodeScalars
    // Most words are ASCII: nothing to read otherwise.
    guard scalars.contains(where: { !$0.isASCII }) else { return token }
    let disguise =
      always || scalars.contains(where: { ("a"..."z").contains($0) || telltales.contains($0) })
    guard disguise || scalars.contains(where: { standIns[$0] != nil }) else { return token }
    var folded = String.UnicodeScalarView()
    for scalar in scalars {
      if let standIn = standIns[scalar] {
        folded.append(disguise ? standIn.latin : standIn.small)
      } else {
        folded.append(disguise ? lookalikes[scalar] ?? scalar : scalar)
      }
    }
    return String(folded)
  }

  /// Greek capitals drawn like Latin capitals that their small letters are not: Ν is N where
  /// ν reads v, Υ is Y where υ reads u. Lower case would lose what they were drawn as, so
  /// they pass it as stand-ins (of the private use area, which no text needs to have read as
  /// anything), each read as its Latin letter in a disguise and as its small letter otherwise.
  static let capitalStandIns: [Unicode.Scalar: Unicode.Scalar] = [
    "\u{039D}": "\u{F8F0}", "\u{03A5}": "\u{F8F1}",
  ]
  static let standIns: [Unicode.Scalar: (small: Unicode.Scalar, latin: Unicode.Scalar)] = [
    "\u{F8F0}": ("\u{03BD}", "n"), "\u{F8F1}": ("\u{03C5}", "y"),
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
  /// inside a word are dropped ("don't" is "dont"); everything else separates. A disguised
  /// word's look-alikes are read as Latin letters (every word's, with `readingLookalikes`).
  static func tokens(_ text: String, readingLookalikes: Bool = false) -> [String] {
    let undisguised = { (token: String) in Self.undisguised(token, always: readingLookalikes) }
    var tokens: [String] = []
    var current = ""
    for character in plain(text) {
      if character.isLetter || character.isNumber || substitutes[character] != nil
        || character.unicodeScalars.first.flatMap({ standIns[$0] }) != nil
      {
        current.append(character)
      } else if character == "'" || character == "’", !current.isEmpty {
        continue
      } else if !current.isEmpty {
        tokens.append(undisguised(current))
        current = ""
      }
    }
    if !current.isEmpty { tokens.append(undisguised(current)) }
    return tokens
  }

  /// Lower case, accents and other marks taken off, invisible characters (zero-width
  /// spaces and joiners, soft hyphens: nothing a reader sees) dropped, letters without a
  /// decomposition spelled out.
  static func plain(_ text: String) -> String {
    // Most questions are ASCII: nothing to decompose, nothing invisible but controls.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.lowercased() }
    // Lower case after the compatibility forms, whose letters may be capitals (a bold 𝐃 is D);
    // the capital lunate sigma Ϲ first as its small letter, which folds to ς (read as c)
    // rather than to Σ.
    var forms = String.UnicodeScalarView()
    for scalar in text.replacingOccurrences(of: "\u{03F9}", with: "\u{03F2}")
      .decomposedStringWithCompatibilityMapping.unicodeScalars
    {
      forms.append(capitalStandIns[scalar] ?? scalar)
    }
    let decomposed = String(forms).lowercased()
    var plain = ""
    plain.reserveCapacity(decomposed.utf8.count)
    for scalar in decomposed.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .format: continue
      default: break
      }
      // Letters that draw nothing (the Hangul fillers): a word split by one reads whole.
      if scalar.properties.isDefaultIgnorableCodePoint { continue }
      if let letter = letter(drawnAs: scalar) {
        plain.append(letter)
        continue
      }
      let character = Character(scalar)
      if let spelled = spelledOut[character] {
        plain += spelled
      } else {
        plain.append(character)
      }
    }
    return plain
  }

  /// The small Latin letter `scalar` is drawn as, when it is one of `symbolAlphabets`.
  static func letter(drawnAs scalar: Unicode.Scalar) -> Character? {
    for alphabet in symbolAlphabets where alphabet.contains(scalar.value) {
      return Character(
        Unicode.Scalar(UInt8(ascii: "a") + UInt8(scalar.value - alphabet.lowerBound)))
    }
    return nil
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
