import Foundation
import QnA
import QnAPages
import QnAStore
import TestSupport
import Testing

/// A session's report (`SessionReport`): every section from the numbers given, attendees'
/// text escaped and isolated, no inline style (the page's CSP forbids it), and a time axis of
/// at most 48 round bins however long the session ran.
@Suite("qna-server: the session report")
struct SessionReportTests {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  static func question(
    _ number: Int, _ content: String, minute: Double, votes: Int = 0,
    state: QuestionState = .live, answeredAfter: Double? = nil
  ) -> ExportedQuestion {
    let asked = start.addingTimeInterval(minute * 60)
    return ExportedQuestion(
      question: StoredQuestion(
        id: uuid(number, group: 0x51), content: content, answered: answeredAfter != nil,
        askedFrom: uuid(number, group: 0x52), createdAt: asked, votes: votes, state: state,
        answeredAt: answeredAfter.map { asked.addingTimeInterval($0 * 60) }),
      name: nil)
  }

  static let data = SessionReportData(
    questions: [
      question(1, "How does the actor model scale?", minute: 1, votes: 12, answeredAfter: 5),
      question(2, "<script>alert(1)</script>\u{202E}desrever", minute: 3, votes: 30),
      question(3, "Held back", minute: 4, votes: 99, state: .review),
      question(4, "Off topic", minute: 6, state: .dismissed),
    ],
    voteTimes: (0..<42).map { start.addingTimeInterval(Double(60 + $0 * 10)) },
    pollAnswerTimes: [start.addingTimeInterval(600)],
    polls: [
      RoomPoll(
        id: uuid(1, group: 0x53), n: 1,
        spec: PollSpec(kind: .single, prompt: "Tabs or spaces?", options: ["Tabs", "Spaces"]),
        state: .closed, shown: true, results: PollResults(answers: 4, counts: [3, 1])),
      RoomPoll(
        id: uuid(2, group: 0x53), n: 2, spec: PollSpec(kind: .text, prompt: "Ideas?"),
        state: .open, shown: true, results: PollResults(answers: 3)),
      RoomPoll(
        id: uuid(3, group: 0x53), n: 3, spec: PollSpec(kind: .words, prompt: "Never opened"),
        state: .draft, shown: false),
    ],
    entries: [
      uuid(2, group: 0x53): [
        PollTextEntry(text: "More demos", count: 2, state: "live"),
        PollTextEntry(text: "rude", count: 1, state: "dismissed"),
      ]
    ],
    attendance: [
      AttendanceMinute(start: start, peak: 40, last: 38),
      AttendanceMinute(start: start.addingTimeInterval(300), peak: 55, last: 50),
    ],
    attendees: 61)

  static func render(_ data: SessionReportData = data) -> String {
    SessionReport.render(
      data, session: .init(title: "Swift on the server", code: "ABC123"),
      style: .embedded("body { color: black; }"), generatedAt: start.addingTimeInterval(3600),
      timeZone: TimeZone(identifier: "UTC")!)
  }

  @Test func everySectionSaysWhatHappened() {
    let page = Self.render()
    for section in ["summary", "timeline", "states", "top", "polls", "attendance"] {
      #expect(page.contains("<section id=\"\(section)\">"), "\(section)")
    }
    #expect(page.contains("<li><span class=\"figure\">4</span> questions asked</li>"))
    #expect(page.contains("<li><span class=\"figure\">42</span> votes</li>"))
    #expect(page.contains("<li><span class=\"figure\">61</span> attendees joined</li>"))
    #expect(page.contains("<span class=\"figure\">55</span> present at once, at most"))
    #expect(page.contains("61 attendees joined. At most 55 present at once."))
    #expect(page.contains("Session ABC123 · 2027-01-15, 08:01–08:10"))
    // The top questions: what the room saw, most voted first (not the held one's 99).
    let top = page.components(separatedBy: "<section id=\"top\">")[1]
    #expect(!top.contains("Held back") && !top.contains("Off topic"))
    #expect(top.range(of: "alert")!.lowerBound < top.range(of: "actor model")!.lowerBound)
    // Polls: a choice's bars with counts and shares; an open text's live entries only; no
    // draft.
    #expect(page.contains("3 · 75.0%"))
    #expect(page.contains("More demos") && !page.contains("rude"))
    #expect(page.contains("1 held or dismissed"))
    #expect(!page.contains("Never opened"))
    #expect(page.contains("<style>\nbody { color: black; }\n</style>"))
  }

  @Test func attendeesTextIsEscapedAndIsolatedAndNothingIsInline() {
    let page = Self.render()
    #expect(!page.contains("<script>"))
    #expect(page.contains("<bdi>&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!page.unicodeScalars.contains("\u{202E}"), "a bidi override drawn, not obeyed")
    #expect(!page.contains("style="), "no inline style: the page's CSP forbids it")
    #expect(!page.contains("<script"))
    let linked = SessionReport.render(
      Self.data, session: .init(title: "<b>x</b>", code: nil), style: .linked,
      generatedAt: Self.start)
    #expect(linked.contains("<link rel=\"stylesheet\" href=\"/assets/report.css\">"))
    #expect(linked.contains("<h1><bdi>&lt;b&gt;x&lt;/b&gt;</bdi></h1>"))
  }

  /// Times on the reader's clock: a session past midnight names both days, and its axis
  /// labels carry the date.
  @Test func aSessionPastMidnightNamesItsDays() {
    let late = SessionReportData(
      questions: [
        Self.question(1, "Before midnight", minute: 0),
        Self.question(2, "After midnight", minute: 5 * 60),
      ])
    let page = SessionReport.render(
      late, session: .init(title: "Night talk", code: nil), style: .linked,
      generatedAt: Self.start, timeZone: TimeZone(identifier: "America/New_York")!)
    // 08:00 UTC is 03:00 in New York: one day there.
    #expect(page.contains("2027-01-15, 03:00–08:00"))
    // 08:00 to 18:00 UTC is 17:00 to 03:00 in Tokyo: two days.
    let tokyo = SessionReport.render(
      SessionReportData(
        questions: [
          Self.question(1, "Before midnight", minute: 0),
          Self.question(2, "After midnight", minute: 10 * 60),
        ]), session: .init(title: "Night talk", code: nil), style: .linked,
      generatedAt: Self.start, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
    #expect(tokyo.contains("2027-01-15, 17:00–2027-01-16, 03:00"))
    #expect(tokyo.contains(">01-15 17:00<"), "an axis past midnight labels its dates")
  }

  @Test func anEmptySessionSaysSo() {
    let page = Self.render(SessionReportData(questions: []))
    #expect(page.contains("No questions.") && page.contains("No polls."))
    #expect(!page.contains("<section id=\"timeline\">"), "no time, no axis")
  }

  /// However long the session, at most 48 bins of a round length, each starting on a
  /// multiple of it; attendance carried through minutes without a row.
  @Test func theTimeAxisHasRoundBinsAndAttendanceCarriesOver() {
    func axis(_ minutes: Double) -> ReportTimeline {
      ReportTimeline(span: Self.start...Self.start.addingTimeInterval(minutes * 60))
    }
    #expect(axis(60).minutes == 2 && axis(60).starts.count <= 48)
    #expect(axis(3 * 24 * 60).minutes == 120 && axis(3 * 24 * 60).starts.count <= 48)
    let year = axis(365 * 24 * 60)
    #expect(year.starts.count <= 48 && year.minutes % 1440 == 0)
    #expect(
      year.starts.allSatisfy {
        Int($0.timeIntervalSince1970) % (year.minutes * 60) == 0
      }, "each bin starts on a multiple of its length")
    // In a zone half an hour from UTC, hourly bins start on its hour, not on UTC's.
    let kolkata = TimeZone(identifier: "Asia/Kolkata")!
    let day = ReportTimeline(
      span: Self.start...Self.start.addingTimeInterval(40 * 3600), timeZone: kolkata)
    #expect(day.minutes == 60)
    #expect(
      day.starts.allSatisfy {
        Int($0.timeIntervalSince1970 + Double(kolkata.secondsFromGMT(for: $0))) % 3600 == 0
      })
    // 40 at 0:00, down to 38 by its end; nothing written for four minutes; 55 at 0:05.
    #expect(axis(8).present(Self.data.attendance) == [40, 38, 38, 38, 38, 55, 50, 50, 50])
  }
}
