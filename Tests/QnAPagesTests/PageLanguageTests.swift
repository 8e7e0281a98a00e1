import CommandLineValues
import Foundation
import QnAPages
import Testing

/// The pages in the browser's language, from the terminal's catalogues: a `.mo` read without
/// glibc (one locale per process could not serve two browsers), its plural rule evaluated as
/// gettext does, and `Accept-Language` chosen by its weights.
@Suite("The pages' languages")
struct PageLanguageTests {
  static let polish =
    "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"

  @Test func pluralRulesAreEvaluatedAsGettextDoes() {
    let polish = PluralRule(header: "Plural-Forms: " + Self.polish)
    #expect(
      [1, 2, 3, 4, 5, 12, 14, 21, 22, 25, 102, 112, 0].map(polish.form)
        == [0, 1, 1, 1, 2, 2, 2, 2, 1, 2, 1, 2, 2])
    let german = PluralRule(header: "Plural-Forms: nplurals=2; plural=(n != 1);")
    #expect([0, 1, 2].map(german.form) == [1, 0, 1])
    let none = PluralRule(header: "Plural-Forms: nplurals=1; plural=0;")
    #expect([0, 1, 7].map(none.form) == [0, 0, 0])
    // What does not parse is English's rule, never a crash or a loop.
    for broken in [
      "plural=(n", "plural=n ? : 1", "plural=" + String(repeating: "(", count: 400), "plural=n/0",
      "plural=x",
    ] {
      let rule = PluralRule(header: broken)
      #expect(rule.form(1) <= 1 && rule.form(5) <= 1, "\(broken)")
    }
  }

  /// A catalogue as msgfmt compiles it.
  static func compiled(_ po: String) throws -> MessageCatalogue {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qna-po-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = directory.appendingPathComponent("pl.po")
    try po.write(to: source, atomically: true, encoding: .utf8)
    let mo = directory.appendingPathComponent("pl.mo").path
    let msgfmt = Process()
    msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
    msgfmt.arguments = ["-o", mo, source.path]
    try msgfmt.run()
    msgfmt.waitUntilExit()
    #expect(msgfmt.terminationStatus == 0)
    return try #require(MessageCatalogue(contentsOf: mo))
  }

  @Test func aCompiledCatalogueIsReadWithItsPluralForms() throws {
    let catalogue = try Self.compiled(
      """
      msgid ""
      msgstr ""
      "Content-Type: text/plain; charset=UTF-8\\n"
      "Plural-Forms: \(Self.polish)\\n"

      msgid "Questions"
      msgstr "Pytania"

      msgid "%d vote"
      msgid_plural "%d votes"
      msgstr[0] "%d głos"
      msgstr[1] "%d głosy"
      msgstr[2] "%d głosów"

      """)
    #expect(catalogue.text("Questions") == "Pytania")
    #expect(catalogue.text("Not translated") == "Not translated")
    #expect(
      [1, 2, 5, 22].map { catalogue.plural("%d vote", "%d votes", $0) }
        == ["%d głos", "%d głosy", "%d głosów", "%d głosy"])
    #expect(catalogue.plural("%d match", "%d matches", 3) == "%d matches")
    // Not a catalogue: refused, not trusted.
    #expect(MessageCatalogue(data: Array("not a catalogue at all, really".utf8)) == nil)
    #expect(
      MessageCatalogue(data: [0xde, 0x12, 0x04, 0x95] + Array(repeating: 0xFF, count: 24)) == nil)
  }

  @Test func acceptLanguageIsChosenByItsWeights() throws {
    let catalogue = try Self.compiled(
      """
      msgid ""
      msgstr "Content-Type: text/plain; charset=UTF-8\\n"

      msgid "Questions"
      msgstr "Pytania"

      """)
    let languages = PageLanguages(catalogues: ["pl": catalogue])
    #expect(languages.words(acceptLanguage: "pl-PL,pl;q=0.9,en;q=0.8").language == "pl")
    #expect(languages.words(acceptLanguage: "fr-FR, pl;q=0.5").language == "pl")
    #expect(languages.words(acceptLanguage: "en-GB,pl;q=0.9").language == "en")
    #expect(languages.words(acceptLanguage: "pl;q=0, fr").language == "en")
    #expect(languages.words(acceptLanguage: "de;q=0.3, pl;q=0.7").language == "pl")
    #expect(languages.words(acceptLanguage: nil).language == "en")
    #expect(
      languages.words(acceptLanguage: String(repeating: "x,", count: 10_000)).language == "en")
    // The page: its lang, its words, and the script's words in data-messages, escaped.
    let page = PresenterPage.render(
      [], total: 0, answered: 0, words: languages.words(acceptLanguage: "pl"))
    #expect(page.contains("<html lang=\"pl\">") && page.contains("<h1>Pytania</h1>"))
    #expect(page.contains("data-messages=\"{}\""), "none of the script's words translated here")
  }

  @Test func theScriptsWordsSurviveQuotesMarkupAndBidiMarks() throws {
    let catalogue = try Self.compiled(
      """
      msgid ""
      msgstr "Content-Type: text/plain; charset=UTF-8\\n"

      msgid "Approve"
      msgstr "\u{200F}אשר \\"<b>\\" & 'ok'"

      """)
    let page = PresenterPage.render(
      [], total: 0, answered: 0,
      words: PageLanguages(catalogues: ["he": catalogue]).words(acceptLanguage: "he"))
    let attribute = try #require(
      page.firstRange(of: #/data-messages="([^"]*)"/#).map {
        String(page[$0].dropFirst(15).dropLast())
      })
    #expect(!attribute.contains("<") && !attribute.contains("\\u{"))
    let json = attribute.replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    let table = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
    #expect(table["Approve"] == "\u{200F}אשר \"<b>\" & 'ok'")
  }

  @Test func everyWordOfTheScriptIsOfferedForTranslation() {
    // The page's script and its polls' modules (extension polls).
    let source =
      asset("presenter.js") + asset("presenter-polls.js") + asset("presenter-poll-texts.js")
    var used = Set<String>()
    for pattern in [
      #"word\('((?:[^'\\]|\\.)*)'\)"#, #"word\("((?:[^"\\]|\\.)*)"\)"#,
      #"word\(q\.private \? '([^']*)' : '([^']*)'\)"#,
      #"word\(q\.id === highlighted \? '([^']*)' : '([^']*)'\)"#, #": '([A-Z][a-z]+)'"#,
    ] {
      let regex = try! NSRegularExpression(pattern: pattern)
      for match in regex.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
        for group in 1..<match.numberOfRanges {
          if let range = Range(match.range(at: group), in: source) {
            used.insert(String(source[range]))
          }
        }
      }
    }
    #expect(used.count >= 15)
    #expect(
      used.subtracting(PresenterScript.messages).isEmpty,
      "\(used.subtracting(PresenterScript.messages))")
  }
}
