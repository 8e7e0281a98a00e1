import CommandLineValues
import Foundation
import QnA
import QnAStore

/// The words of one page in one language: the browser's, where a catalogue has it, else
/// English (the message ids). `make po` extracts the ids by the keyword `t` (and
/// `scriptWord` for the script's, which the page hands it).
package struct PageWords: Sendable {
  /// The page's `lang`: `en`, `de`, `pt-BR`.
  package let language: String
  let catalogue: MessageCatalogue?

  package static let english = PageWords(language: "en", catalogue: nil)

  func t(_ id: String) -> String { catalogue?.text(id) ?? id }

  func plural(_ one: String, _ many: String, _ count: Int) -> String {
    catalogue?.plural(one, many, count) ?? (count == 1 ? one : many)
  }

  func format(_ template: String, _ arguments: any CustomStringConvertible...) -> String {
    MessageFormat.apply(template, arguments.map(\.description))
  }

  /// The script's words in this language, as JSON for the page's `data-messages`: only the
  /// ones translated.
  func scriptMessages(_ ids: [String]) -> String {
    var table: [String: String] = [:]
    for id in ids where t(id) != id { table[id] = t(id) }
    let data =
      (try? JSONSerialization.data(withJSONObject: table, options: [.sortedKeys])) ?? Data()
    // What HTML.escape would show as a visible escape (bidi marks, invisible characters)
    // escaped for JSON first, as the export does: the attribute then parses.
    return Export.jsonEscapingControls(String(decoding: data, as: UTF8.self))
  }
}

/// Marks a message id for `make po` that the page's script translates (gettext's `N_`).
func scriptWord(_ id: String) -> String { id }

/// Every catalogue found at start, and the choice of one by a request's `Accept-Language`.
package struct PageLanguages: Sendable {
  let catalogues: [String: MessageCatalogue]

  package init(catalogues: [String: MessageCatalogue]) { self.catalogues = catalogues }

  package init(directory: String?) {
    var catalogues: [String: MessageCatalogue] = [:]
    if let directory {
      for language in CatalogueDirectory.languages(in: directory) {
        let path = CatalogueDirectory.file(language: language, in: directory)
        catalogues[language] = MessageCatalogue(contentsOf: path)
      }
    }
    self.catalogues = catalogues
  }

  /// The catalogues beside the program, or this checkout's build.
  package static func found() -> PageLanguages {
    PageLanguages(directory: CatalogueDirectory.find(built: builtCatalogues))
  }

  package var languages: [String] { catalogues.keys.sorted() }

  /// The first language of `Accept-Language` (by its weights) that has a catalogue, its
  /// region or without it (`de-AT` finds `de`); English at the first `en`, or when none has.
  package func words(acceptLanguage: String?) -> PageWords {
    for tag in Self.preferences(acceptLanguage ?? "") {
      if tag.hasPrefix("en") { return .english }
      let parts = tag.split(separator: "-")
      let candidates =
        parts.count > 1 ? ["\(parts[0])_\(parts[1].uppercased())", String(parts[0])] : [tag]
      for candidate in candidates {
        if let catalogue = catalogues[candidate] {
          return PageWords(
            language: candidate.replacingOccurrences(of: "_", with: "-"), catalogue: catalogue)
        }
      }
    }
    return .english
  }

  /// The header's language tags, lowercased, most wanted first (at most 20 looked at).
  static func preferences(_ header: String) -> [String] {
    let items = header.split(separator: ",").prefix(20).enumerated().compactMap {
      position, item -> (tag: String, weight: Double, position: Int)? in
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let tag = parts.first?.lowercased(), !tag.isEmpty, tag.count <= 35 else { return nil }
      var weight = 1.0
      for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
        weight = Double(parameter.dropFirst(2)) ?? 0
      }
      return weight > 0 ? (tag, weight, position) : nil
    }
    return items.sorted { ($0.weight, -$0.position) > ($1.weight, -$1.position) }.map(\.tag)
  }
}
