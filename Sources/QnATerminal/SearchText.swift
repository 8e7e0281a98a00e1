/// Text as the room's search compares it: lower case, accents off ("Łódź" and "Café" found
/// by "lodz" and "cafe"), from the standard library's Unicode names rather than Foundation's
/// diacritic-insensitive search, which would link ICU's 34 MB into qna.
enum SearchText {
  /// Whether a text holds `needle`, case and accents ignored (the needle folded once).
  static func matcher(for needle: String) -> (String) -> Bool {
    let needle = folded(needle)
    return { folded($0).contains(needle) }
  }

  /// Upper case then lower case, so that "ß" and "SS" meet at "ss"; combining accents (as
  /// typed after their letter, or as a decomposed text has them) left out.
  static func folded(_ text: some StringProtocol) -> String {
    var folded = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !isAccent(scalar) {
      for upper in base(of: scalar).properties.uppercaseMapping.unicodeScalars {
        folded.append(
          contentsOf: upper.properties.lowercaseMapping.unicodeScalars.filter {
            !isAccent($0)
          })
      }
    }
    return String(folded)
  }

  private static func isAccent(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .nonspacingMark
  }

  /// The letter under the accent: "LATIN SMALL LETTER E WITH ACUTE" is "LATIN SMALL LETTER E";
  /// letters whose names say nothing of it ("CYRILLIC CAPITAL LETTER IO", Ё) by the letter
  /// and mark they are canonically equal to.
  static func base(of scalar: Unicode.Scalar) -> Unicode.Scalar {
    guard scalar.value >= 0xC0, let name = scalar.properties.name else { return scalar }
    if let with = name.firstRange(of: " WITH "),
      let base = scalarsByName[String(name[..<with.lowerBound])]
    {
      return base
    }
    return letterAndMark[String(scalar)] ?? scalar
  }

  /// Every named scalar of the alphabets with accented letters (Latin, Greek, Cyrillic and
  /// their extensions, below U+3000), built on the first search.
  private static let scalarsByName: [String: Unicode.Scalar] = {
    var names: [String: Unicode.Scalar] = [:]
    for value in UInt32(0x20)..<0x3000 {
      guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name else { continue }
      names[name] = scalar
    }
    return names
  }()

  /// Each basic Latin, Greek and Cyrillic letter with each combining mark, by the string they
  /// make: Swift's strings hash and compare by canonical equivalence, so "Ё" finds "Е" + "̈".
  private static let letterAndMark: [String: Unicode.Scalar] = {
    let letters = [0x41...0x5A, 0x61...0x7A, 0x391...0x3C9, 0x400...0x45F].joined()
    var pairs: [String: Unicode.Scalar] = [:]
    for letter in letters.compactMap(Unicode.Scalar.init) {
      for mark in (0x300...0x36F).compactMap(Unicode.Scalar.init) {
        pairs[String(letter) + String(mark)] = letter
      }
    }
    return pairs
  }()
}
