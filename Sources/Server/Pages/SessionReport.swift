import Foundation
import QnA
import QnAStore

/// A session's report for after the talk (`qna-server report CODE`, and `report` on the
/// presenter's routes): one HTML page with SVG charts, printable to PDF from a browser. It
/// shows the questions, votes and answers over time, answered against open, the top
/// questions, every poll's results and the attendance. Everything attendees wrote is
/// escaped (`HTML.escape`) and isolated (`<bdi>`), so no question can restyle or reorder
/// the page around it.
package enum SessionReport {
  /// The session as the report names it.
  package struct Session: Sendable {
    package var title: String
    package var code: String?

    package init(title: String, code: String?) {
      self.title = title
      self.code = code
    }
  }

  /// How the style sheet reaches the page: linked (`/assets/report.css`, as the server
  /// serves it, under its CSP), or inside it (a file that stands alone).
  package enum Style: Sendable {
    case linked
    case embedded(String)
  }

  /// Top questions listed.
  static let topQuestions = 10

  package static func render(
    _ data: SessionReportData, session: Session, style: Style, generatedAt: Date,
    timeZone: TimeZone = .current, words: PageWords = .english
  ) -> String {
    let title = words.format(words.t("Report: %s"), session.title)
    let sheet =
      switch style {
      case .linked: "<link rel=\"stylesheet\" href=\"/assets/report.css\">"
      case .embedded(let css): "<style>\n\(css)\n</style>"
      }
    let clock = ReportClock(timeZone: timeZone)
    let span = ReportTimeline.span(of: data)
    var subtitle = session.code.map { words.format(words.t("Session %s"), $0) } ?? ""
    if let span {
      // The last day too when the session ran past midnight.
      let lastDay = clock.day(span.upperBound)
      subtitle +=
        (subtitle.isEmpty ? "" : " · ") + clock.day(span.lowerBound) + ", "
        + clock.time(span.lowerBound) + "–"
        + (lastDay == clock.day(span.lowerBound) ? "" : lastDay + ", ")
        + clock.time(span.upperBound)
    }
    let made = words.format(
      words.t("Made %1$s at %2$s (%3$s)."), clock.day(generatedAt), clock.time(generatedAt),
      clock.zoneName)
    var body = summary(data, words: words)
    if let span {
      body += timeline(data, span: span, clock: clock, words: words)
    }
    body += states(data, words: words) + top(data, words: words)
    body += ReportPolls.section(data, words: words)
    body += attendance(data, clock: clock, words: words)
    return """
      <!doctype html>
      <html lang="\(HTML.escape(words.language))"><head><meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <title>\(HTML.escape(title))</title>
      \(sheet)</head>
      <body><header><h1><bdi>\(HTML.escape(session.title))</bdi></h1>
      <p>\(HTML.escape(subtitle))</p></header>
      <main>
      \(body)</main>
      <footer><p>\(HTML.escape(made))</p></footer>
      </body></html>

      """
  }

  /// The figures at a glance.
  static func summary(_ data: SessionReportData, words: PageWords) -> String {
    let asked = data.questions.count
    let answered = data.questions.filter { $0.question.answered }.count
    let peak = data.peak
    let pollAnswers = data.polls.reduce(0) { $0 + ($1.results?.answers ?? 0) }
    let figures: [(Int, String)] = [
      (asked, words.plural("question asked", "questions asked", asked)),
      (answered, words.plural("question answered", "questions answered", answered)),
      (data.voteTimes.count, words.plural("vote", "votes", data.voteTimes.count)),
      (pollAnswers, words.plural("poll answer", "poll answers", pollAnswers)),
      (data.attendees, words.plural("attendee joined", "attendees joined", data.attendees)),
      (peak, words.plural("present at once, at most", "present at once, at most", peak)),
    ]
    let items = figures.map {
      "<li><span class=\"figure\">\($0.0)</span> \(HTML.escape($0.1))</li>"
    }
    return section(
      "summary", words.t("At a glance"), "<ul class=\"figures\">\(items.joined())</ul>")
  }

  /// Questions, votes, answers and poll answers over the session, a line each.
  static func timeline(
    _ data: SessionReportData, span: ClosedRange<Date>, clock: ReportClock, words: PageWords
  ) -> String {
    let timeline = ReportTimeline(span: span, timeZone: clock.timeZone)
    let series = [
      ReportCharts.Series(
        name: words.t("Questions asked"), className: "asked",
        values: timeline.count(data.questions.map(\.question.createdAt))),
      ReportCharts.Series(
        name: words.t("Votes"), className: "votes", values: timeline.count(data.voteTimes)),
      ReportCharts.Series(
        name: words.t("Questions answered"), className: "answered",
        values: timeline.count(data.questions.compactMap(\.question.answeredAt))),
      ReportCharts.Series(
        name: words.t("Poll answers"), className: "polls",
        values: timeline.count(data.pollAnswerTimes)),
    ]
    let labels = timeline.labels(clock)
    let every = words.format(
      words.plural(
        "Each point counts %d minute.", "Each point counts %d minutes.",
        timeline.minutes), timeline.minutes)
    let chart = ReportCharts.lines(series, labels: labels, title: words.t("Over time"))
    return section(
      "timeline", words.t("Over time"),
      legend(series.map { ($0.className, $0.name) }) + chart
        + "<p class=\"note\">\(HTML.escape(every))</p>"
        + numbers(
          caption: words.t("Over time"), header: [words.t("From")] + series.map(\.name),
          rows: labels.indices.map { bin in [labels[bin]] + series.map { String($0.values[bin]) } },
          words: words))
  }

  /// The questions by state: answered, open (live), waiting for review, dismissed.
  static func states(_ data: SessionReportData, words: PageWords) -> String {
    var counts: [String: Int] = [:]
    for row in data.questions {
      let state = row.question.answered ? "answered" : row.question.state.rawValue
      counts[state, default: 0] += 1
    }
    let parts: [(className: String, name: String, value: Int)] = [
      ("answered", words.t("Answered"), counts["answered"] ?? 0),
      ("live", words.t("Open"), counts["live"] ?? 0),
      ("review", words.t("Waiting for review"), counts["review"] ?? 0),
      ("dismissed", words.t("Dismissed"), counts["dismissed"] ?? 0),
    ]
    guard !data.questions.isEmpty else {
      return section("states", words.t("Answered and open"), note(words.t("No questions.")))
    }
    let total = data.questions.count
    let caption = words.t("Questions by state")
    let rows = parts.map { part in
      "<tr><th scope=\"row\">" + ReportCharts.swatch(part.className)
        + "\(HTML.escape(part.name))</th><td class=\"num\">\(part.value)</td>"
        + "<td class=\"num\">\(percent(part.value, of: total))</td></tr>"
    }
    return section(
      "states", words.t("Answered and open"),
      ReportCharts.stacked(
        parts.map { ($0.className, $0.value) }, title: caption)
        + "<table class=\"figures-table\">\(hiddenCaption(caption))<tbody>\(rows.joined())"
        + "</tbody></table>")
  }

  /// The most voted questions the room saw (none waiting for review or dismissed: the
  /// room never saw those).
  static func top(_ data: SessionReportData, words: PageWords) -> String {
    let seen = data.questions.map(\.question).filter {
      $0.state == .live || $0.state == .answered || $0.answered
    }
    let best = seen.sorted { ($0.votes, $1.createdAt) > ($1.votes, $0.createdAt) }
      .prefix(topQuestions)
    guard !best.isEmpty else {
      return section("top", words.t("Top questions"), note(words.t("No questions.")))
    }
    let most = max(1, best.first?.votes ?? 1)
    let heads = (
      question: words.t("Question"), share: words.t("Share"), votes: words.t("Votes")
    )
    let rows = best.map { question in
      let state = question.answered ? words.t("Answered") : words.t("Open")
      let label = question.label.map { " · <bdi>" + HTML.escape($0) + "</bdi>" } ?? ""
      return "<tr><td><bdi>\(HTML.escape(question.content))</bdi>"
        + "<span class=\"meta\">\(HTML.escape(state))\(label)</span></td>"
        + "<td class=\"bar-cell\">\(ReportCharts.bar(Double(question.votes) / Double(most)))</td>"
        + "<td class=\"num\">\(question.votes)</td></tr>"
    }
    return section(
      "top", words.t("Top questions"),
      "<table class=\"bars\">\(hiddenCaption(words.t("Top questions")))<thead><tr>"
        + "<th scope=\"col\">\(HTML.escape(heads.question))</th>"
        + "<th scope=\"col\"><span class=\"hidden\">\(HTML.escape(heads.share))</span></th>"
        + "<th scope=\"col\" class=\"num\">\(HTML.escape(heads.votes))</th></tr></thead>"
        + "<tbody>\(rows.joined())</tbody></table>")
  }

  /// Attendees present over the session, and the figures.
  static func attendance(_ data: SessionReportData, clock: ReportClock, words: PageWords)
    -> String
  {
    let peak = data.peak
    let figures =
      words.format(
        words.plural("%d attendee joined.", "%d attendees joined.", data.attendees),
        data.attendees) + " "
      + words.format(
        words.plural("At most %d present at once.", "At most %d present at once.", peak), peak)
    guard let first = data.attendance.first?.start, let last = data.attendance.last?.start
    else { return section("attendance", words.t("Attendance"), note(figures)) }
    let timeline = ReportTimeline(
      span: first...last.addingTimeInterval(59), timeZone: clock.timeZone)
    let present = timeline.present(data.attendance)
    let series = [
      ReportCharts.Series(name: words.t("Present"), className: "present", values: present)
    ]
    let labels = timeline.labels(clock)
    return section(
      "attendance", words.t("Attendance"),
      note(figures) + ReportCharts.lines(series, labels: labels, title: words.t("Attendance"))
        + numbers(
          caption: words.t("Attendance"), header: [words.t("From"), words.t("Present")],
          rows: labels.indices.map { [labels[$0], String(present[$0])] }, words: words))
  }

  static func section(_ id: String, _ heading: String, _ content: String) -> String {
    "<section id=\"\(id)\"><h2>\(HTML.escape(heading))</h2>\(content)</section>\n"
  }

  static func note(_ text: String) -> String { "<p class=\"note\">\(HTML.escape(text))</p>" }

  /// A chart's series, each with a key drawn as its line is (colour and dashes).
  static func legend(_ keys: [(className: String, name: String)]) -> String {
    "<ul class=\"legend\">"
      + keys.map { "<li>" + ReportCharts.lineKey($0.className) + HTML.escape($0.name) + "</li>" }
      .joined() + "</ul>"
  }

  /// A table's name for screen readers.
  static func hiddenCaption(_ text: String) -> String {
    "<caption class=\"hidden\">\(HTML.escape(text))</caption>"
  }

  /// A chart's numbers as a table, folded away (read by screen readers, unfolded in print).
  static func numbers(caption: String, header: [String], rows: [[String]], words: PageWords)
    -> String
  {
    let head = header.map { "<th scope=\"col\">\(HTML.escape($0))</th>" }.joined()
    let body = rows.map { row in
      "<tr>"
        + row.enumerated().map { index, cell in
          index == 0
            ? "<th scope=\"row\">\(HTML.escape(cell))</th>"
            : "<td class=\"num\">\(HTML.escape(cell))</td>"
        }.joined() + "</tr>"
    }.joined()
    let summary = words.t("The numbers")
    return "<details><summary>\(HTML.escape(summary))</summary>"
      + "<table class=\"numbers\">\(hiddenCaption(caption))<thead><tr>\(head)</tr></thead>"
      + "<tbody>\(body)</tbody></table>"
      + "</details>"
  }

  /// `part` of `whole` as a percentage with one decimal.
  static func percent(_ part: Int, of whole: Int) -> String {
    guard whole > 0 else { return "" }
    let tenths = Int((Double(part) * 1000 / Double(whole)).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }
}

/// Times as the report writes them: in one time zone, which it names.
struct ReportClock {
  let timeZone: TimeZone

  var zoneName: String { timeZone.identifier }

  func time(_ date: Date) -> String {
    let parts = calendar.dateComponents([.hour, .minute], from: date)
    return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
  }

  func day(_ date: Date) -> String {
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }

  private var calendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar
  }
}
