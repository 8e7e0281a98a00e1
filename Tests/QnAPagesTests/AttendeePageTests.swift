import Foundation
import QnAPages
import QnAStore
import Testing

@Suite("The attendee page and the projector view")
struct AttendeePageTests {
  static let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>\u{202E}evil"

  static func room(_ questions: [StoredQuestion], highlighted: UUID? = nil) -> AttendeePage.Room {
    var room = AttendeePage.Room(
      base: "/s/K7M2QX/", socket: "/s/K7M2QX/socket", title: "<i>Talk</i>\u{202E}",
      code: "K7M2QX")
    room.questions = questions
    room.highlighted = highlighted
    return room
  }

  static func question(_ content: String, answer: String? = nil) -> StoredQuestion {
    var question = StoredQuestion(
      id: UUID(), content: content, askedFrom: UUID(),
      createdAt: Date(timeIntervalSinceReferenceDate: 0))
    question.answer = answer
    question.answered = answer != nil
    return question
  }

  /// Questions, answers, titles and a refused draft: text on both pages, never markup; bidi
  /// controls shown as escapes.
  @Test func hostileTextIsInertOnBothPages() {
    let asked = Self.question(
      Self.hostile, answer: Self.hostile + String(repeating: "x", count: 10_000))
    let room = Self.room([asked], highlighted: asked.id)
    let pages = [
      AttendeePage.render(room, token: UUID()),
      AttendeePage.render(
        room, token: UUID(), notice: .refused(.empty),
        draft: (Self.hostile, Self.hostile, Self.hostile)),
      ProjectorPage.render(room, joinAddress: "http://x.example/s/K7M2QX/", qr: nil),
    ]
    for page in pages {
      #expect(!page.contains("<script>alert") && !page.contains("<img src=x"))
      #expect(!page.contains("<i>Talk"))
      #expect(!page.contains("\u{202E}"))
      #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
      #expect(page.contains("\\u{202E}evil"))
      // The only scripts are the server's own files.
      #expect(page.components(separatedBy: "<script").count == 2)
    }
  }

  /// On the projector and the presenter's page, a narrow column breaks the join address
  /// after a slash (or inside a host too long for a line), never inside the code people type
  /// nor between it and its slash; the address is a link.
  @Test func theJoinAddressBreaksBetweenItsPartsNeverMidCode() {
    #expect(
      HTML.joinAddress("http://x.example:8080/s/K7M2QX/", code: "K7M2QX")
        == "http://<wbr>x.example:8080/<wbr>s/<wbr><span class=\"unbroken\">K7M2QX/</span>")
    #expect(
      HTML.joinAddress("http://[::1]:8080/s/K7M2QX/socket", code: "K7M2QX")
        == "http://<wbr>[::1]:8080/<wbr>s/<wbr><span class=\"unbroken\">K7M2QX/</span><wbr>socket")
    // The one room has no code to keep whole; a code at the very end has no slash after it.
    #expect(
      HTML.joinAddress("https://h.example/room/", code: nil) == "https://<wbr>h.example/<wbr>room/")
    #expect(
      HTML.joinAddress("http://h/s/K7M2QX", code: "K7M2QX")
        == "http://<wbr>h/<wbr>s/<wbr><span class=\"unbroken\">K7M2QX</span>")
    // Only a part that is the code alone is kept whole, and the text stays escaped.
    #expect(!HTML.joinAddress("http://K7M2QX.example/", code: "K7M2QX").contains("<span"))
    #expect(HTML.joinAddress("http://a<b>/s/K7M2QX/", code: "K7M2QX").contains("a&lt;b&gt;"))
    let page = ProjectorPage.render(
      Self.room([]), joinAddress: "http://x.example/s/K7M2QX/", qr: nil)
    #expect(page.contains("<a href=\"http://x.example/s/K7M2QX/\">http://<wbr>x.example/<wbr>"))
    #expect(page.contains("<span class=\"unbroken\">K7M2QX/</span></a>"))
    let desk = PresenterPage.render(
      [], total: 0, answered: 0, base: "/s/K7M2QX/",
      join: ("http://x.example/s/K7M2QX/", "K7M2QX", nil))
    #expect(desk.contains("<a href=\"http://x.example/s/K7M2QX/\">http://<wbr>x.example/<wbr>"))
    #expect(desk.contains("<span class=\"unbroken\">K7M2QX/</span></a>"))
  }

  @Test func theFormCarriesItsTokenAndAClosedSessionDisablesIt() {
    let token = UUID()
    var room = Self.room([])
    let open = AttendeePage.render(room, token: token)
    #expect(open.contains("value=\"\(token.uuidString)\""))
    #expect(open.contains("action=\"/s/K7M2QX/ask\""))
    #expect(open.contains("No questions yet."))
    room.open = false
    let closed = AttendeePage.render(room, token: token)
    #expect(closed.contains("This session is closed"))
    #expect(closed.contains("<button type=\"submit\" disabled>"))
  }

  /// Every word the two scripts show goes through `word(…)` and is in their `messages`.
  @Test func everyWordOfTheScriptsIsOfferedForTranslation() {
    for (source, messages) in [
      (asset("room.js"), AttendeeScript.messages),
      (asset("screen.js"), ProjectorScript.messages),
    ] {
      var used = Set<String>()
      let regex = try! NSRegularExpression(
        pattern: #"word\('((?:[^'\\]|\\.)*)'\)|'([A-Z][a-z]+(?: [a-z]+)*)'"#)
      for match in regex.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
        for group in 1..<match.numberOfRanges {
          if let range = Range(match.range(at: group), in: source) {
            used.insert(String(source[range]))
          }
        }
      }
      let words = used.filter { messages.contains($0) || source.contains("word('\($0)')") }
      #expect(words.subtracting(messages).isEmpty, "\(words.subtracting(messages))")
      #expect(words.count >= 5)
    }
  }
}
