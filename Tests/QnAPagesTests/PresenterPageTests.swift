import CommandLineValues
import Foundation
import QnAPages
import QnAStore
import Testing

/// The presenter's page as text: what an attendee typed can never become markup.
@Suite("The presenter's page, as HTML")
struct PresenterPageTests {
  @Test func markupQuotesAndControlsAreEscaped() {
    #expect(HTML.escape("<b a=\"1\" b='2'>&") == "&lt;b a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;")
    #expect(HTML.escape("bell\u{7}esc\u{1B}") == "bell\\x07esc\\e")
    #expect(HTML.escape("evil\u{202E}txt.exe\u{200B}") == "evil\\u{202E}txt.exe\\u{200B}")
    #expect(HTML.escape("tab\tline\nend") == "tab\tline\nend")
  }

  @Test func thePageScriptEscapesWhatTheSanitizerDoesLessLineBreaks() {
    var fromScript: Set<UInt32> = []
    for range in PresenterScript.printableRanges { fromScript.formUnion(range) }
    let expected = Set(
      (UInt32(0)...0xFFFF).filter { value in
        guard let scalar = Unicode.Scalar(value) else { return false }
        return PrintableText.isControl(scalar) && ![0x09, 0x0A, 0x0D].contains(value)
      })
    #expect(fromScript == expected)
    // The pages' `printable` escapes exactly those.
    #expect(asset("common.js").contains("/[\(PresenterScript.printableClass)]/g;"))
    #expect(PresenterScript.printableClass.hasPrefix("\\u0000-\\u0008\\u000B-\\u000C"))
  }

  @Test func aHostileQuestionIsInertOnThePage() {
    let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    let question = StoredQuestion(
      id: UUID(), content: hostile, askedFrom: UUID(),
      createdAt: Date(timeIntervalSinceReferenceDate: 0))
    let page = PresenterPage.render([question], total: 1, answered: 0, title: "<i>Talk</i>")
    #expect(!page.contains("<script>alert") && !page.contains("<img src=x"))
    #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!page.contains("<i>Talk</i>"))
  }
}
