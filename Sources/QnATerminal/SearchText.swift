/// Text as the room's search compares it: case folded and accents off ("Łódź", "Café" and
/// "STRAẞE" found by "lodz", "cafe" and "strasse"), from the standard library's Unicode
/// properties and names rather than Foundation's diacritic-insensitive search, which would
/// link ICU's 34 MB into qna.
package enum SearchText {
  /// Whether a text holds `needle`, case and accents ignored. A needle of nothing but accents
  /// looks for nothing: the whole room.
  package static func matcher(for needle: String) -> (String) -> Bool {
    let needle = folded(needle)
    guard !needle.isEmpty else { return { _ in true } }
    return { folded($0).contains(needle) }
  }

  /// One table lookup a scalar below U+3100; ASCII by arithmetic.
  package static func folded(_ text: some StringProtocol) -> String {
    var folded = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x41...0x5A: folded.append(Unicode.Scalar(UInt8(scalar.value + 0x20)))
      case ..<0x80: folded.append(scalar)
      case ..<tableEnd: folded.append(contentsOf: table[Int(scalar.value) - 0x80])
      default: folded.append(contentsOf: fold(scalar))
      }
    }
    return String(folded)
  }

  /// Latin, Greek, Cyrillic and the other alphabets with accented letters, and the kana.
  private static let tableEnd: UInt32 = 0x3100

  /// Each scalar from U+0080 to U+30FF folded, computed on the first search (tens of
  /// milliseconds).
  private static let table: [[Unicode.Scalar]] = (UInt32(0x80)..<tableEnd).map {
    Unicode.Scalar($0).map(fold) ?? []
  }

  /// Upper then lower case (as Unicode's case folding: "ᾳ" and "ᾼ" are "αι"), the letter
  /// under the accent, then upper and lower case again: so "ẞ" and "ß" both become "ss", "Ɖ"
  /// and "ɖ" both "d", and a combining accent nothing.
  static func fold(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
    var folded: [Unicode.Scalar] = []
    for upper in scalar.properties.uppercaseMapping.unicodeScalars {
      for lower in upper.properties.lowercaseMapping.unicodeScalars {
        for again in base(of: lower).properties.uppercaseMapping.unicodeScalars {
          folded += again.properties.lowercaseMapping.unicodeScalars.filter { !isAccent($0) }
        }
      }
    }
    return folded
  }

  private static func isAccent(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .nonspacingMark
  }

  /// The letter under the accent: the letter and mark it is canonically equal to (Ё is Е and
  /// ̈), else by name, for letters with several accents or a stroke ("LATIN SMALL LETTER E
  /// WITH CIRCUMFLEX AND DOT BELOW" is "LATIN SMALL LETTER E", Ł is L).
  static func base(of scalar: Unicode.Scalar) -> Unicode.Scalar {
    guard scalar.value >= 0xC0 else { return scalar }
    if let base = letterAndMark[String(scalar)] { return base }
    guard let name = scalar.properties.name, let with = name.firstRange(of: " WITH ") else {
      return scalar
    }
    return scalarsByName[String(name[..<with.lowerBound])] ?? scalar
  }

  /// Every named scalar below the table's end, by name; built with the table.
  private static let scalarsByName: [String: Unicode.Scalar] = {
    var names: [String: Unicode.Scalar] = [:]
    for value in UInt32(0x20)..<tableEnd {
      guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name else { continue }
      names[name] = scalar
    }
    return names
  }()

  /// Each letter of the scripts whose precomposed letters are not named " WITH " with the
  /// marks they are made with, by the string they make: Swift's strings hash and compare by
  /// canonical equivalence, so "Ё" finds "Е" + "̈", "が" "か" + "゙", "क़" "क" + "़".
  private static let letterAndMark: [String: Unicode.Scalar] = {
    var pairs: [String: Unicode.Scalar] = [:]
    func pair(_ letters: [ClosedRange<UInt32>], _ marks: ClosedRange<UInt32>) {
      for letter in letters.joined().compactMap(Unicode.Scalar.init) {
        for mark in marks.compactMap(Unicode.Scalar.init) {
          pairs[String(letter) + String(mark)] = letter
        }
      }
    }
    pair([0x41...0x5A, 0x61...0x7A, 0x391...0x3FF, 0x400...0x45F], 0x300...0x36F)
    pair([0x620...0x6FF], 0x653...0x655)  // Arabic's hamza and madda
    pair([0x900...0x97F], 0x93C...0x93C)  // the nukta of Devanagari, Bengali, Gurmukhi, Oriya
    pair([0x980...0x9FF], 0x9BC...0x9BC)
    pair([0xA00...0xA7F], 0xA3C...0xA3C)
    pair([0xB00...0xB7F], 0xB3C...0xB3C)
    pair([0x1000...0x109F], 0x102E...0x102E)  // Myanmar
    pair([0x3041...0x30FF], 0x3099...0x309A)  // the kana's voicing marks
    return pairs
  }()
}
