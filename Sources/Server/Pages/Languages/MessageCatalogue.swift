import Foundation

/// One language's compiled catalogue (`qna.mo`, GNU gettext's format), read into memory for
/// the pages: the server answers each request in that browser's language, which glibc's
/// gettext (one locale per process) cannot do. The same files as the terminal's.
package struct MessageCatalogue: Sendable {
  /// Message id (for a plural: the singular) → its translation, or its plural forms.
  private(set) var translations: [String: [String]] = [:]
  private(set) var rule = PluralRule.english

  /// `nil` for a file that is not a catalogue (or is larger than 4 MiB).
  package init?(contentsOf path: String) {
    guard let data = FileManager.default.contents(atPath: path), data.count < 4 << 20 else {
      return nil
    }
    self.init(data: [UInt8](data))
  }

  package init?(data bytes: [UInt8]) {
    guard bytes.count >= 28 else { return nil }
    func word(_ offset: Int, _ little: Bool) -> Int? {
      guard offset >= 0, offset + 4 <= bytes.count else { return nil }
      let b = bytes[offset..<offset + 4].map(UInt32.init)
      return Int(
        little
          ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24)
    }
    let little: Bool
    switch word(0, true) {
    case 0x9504_12de: little = true
    case 0xde12_0495: little = false
    default: return nil
    }
    guard let count = word(8, little), let originals = word(12, little),
      let translated = word(16, little), count < 100_000
    else { return nil }
    func string(_ table: Int, _ index: Int) -> [String]? {
      guard let length = word(table + index * 8, little),
        let offset = word(table + index * 8 + 4, little), offset + length <= bytes.count
      else { return nil }
      return bytes[offset..<offset + length].split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    }
    // Entries may overlap; decoding stops at twice the file's size (bounded work).
    var decoded = 0
    for index in 0..<count {
      guard let ids = string(originals, index), let forms = string(translated, index),
        let id = ids.first
      else { return nil }
      decoded += ids.reduce(0) { $0 + $1.utf8.count } + forms.reduce(0) { $0 + $1.utf8.count }
      guard decoded <= 2 * bytes.count else { return nil }
      if id.isEmpty {
        // The header: its Plural-Forms line.
        let header = forms.first ?? ""
        if let line = header.split(separator: "\n").first(where: { $0.hasPrefix("Plural-Forms:") })
        {
          rule = PluralRule(header: String(line))
        }
      } else {
        translations[id] = forms
      }
    }
  }

  package func text(_ id: String) -> String { translations[id]?.first ?? id }

  package func plural(_ one: String, _ many: String, _ count: Int) -> String {
    guard let forms = translations[one] else { return count == 1 ? one : many }
    let form = rule.form(count)
    return forms.indices.contains(form) ? forms[form] : forms[forms.count - 1]
  }
}
