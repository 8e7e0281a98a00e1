import CommandLineValues
import QnA

/// How the question list is scrolled: following the newest, or with a question's line at
/// the top of the list area.
public enum ScrollPosition: Sendable, Equatable {
  case following
  /// `line` of the question `id` is the first one shown; `index` is where that question
  /// was in the list last time (a hint, checked before use).
  case anchored(id: QnA.Question.ID, index: Int, line: Int)
}

/// One row of the list area.
struct ListRow: Equatable {
  enum Part: Equatable {
    /// The status label of the question's first row, and its text.
    case first(label: String, text: String)
    case continuation(String)
    /// Why the server refused it.
    case reason(String)
  }

  var part: Part
  var question: Question
}

/// The list's geometry: how questions wrap at a width, and scrolling over them. Work is
/// proportional to what is on screen (plus one id search when scrolled), never to the whole
/// list, so a frame of 10,000 questions costs what a frame of 60 does.
struct QuestionList {
  let questions: [Question]
  let width: Int
  let height: Int
  /// The clock reading labels count down from; `nil` for a screen reader, whose labels do
  /// not count.
  var now: Duration? = .zero
  /// For a screen reader: words where the sighted get glyphs.
  var words = false

  /// Columns before a question's text: a margin, the longest label and a gap.
  static let labelColumns = 13

  var textWidth: Int { max(1, width - Self.labelColumns - 1) }

  func rows(of question: Question) -> [ListRow] {
    let text = TextWrap.lines(Sanitizer.forScreen(question.content), width: textWidth)
    var rows = [
      ListRow(
        part: .first(label: Self.label(question, now: now), text: text[0]),
        question: question)
    ]
    rows += text.dropFirst().map { ListRow(part: .continuation($0), question: question) }
    if let answer = question.answer {
      rows += TextWrap.lines(
        Self.answerLine(answer, isPrivate: question.answerIsPrivate, words: words),
        width: textWidth
      ).map { ListRow(part: .continuation($0), question: question) }
    }
    if case .failed(let reason) = question.status {
      let lines = TextWrap.lines(
        (words ? tr("Refused:") + " " : "↳ ") + Sanitizer.forScreen(reason) + " "
          + tr("(Ctrl-T asks again, Ctrl-X discards)"),
        width: textWidth)
      rows += lines.map { ListRow(part: .reason($0), question: question) }
    }
    return rows
  }

  /// The presenter's answer under its question, in both lists (text from the network, made
  /// safe for the screen).
  static func answerLine(_ answer: String, isPrivate: Bool, words: Bool = false) -> String {
    (words ? "" : "↳ ") + (isPrivate ? tr("Answered privately:") : tr("Answer:")) + " "
      + Sanitizer.forScreen(answer)
  }

  /// The label, with the presenter's decision where the server has one (extension
  /// `lifecycle`): in review, dismissed.
  static func label(_ question: Question, now: Duration?) -> String {
    switch (question.status, question.state) {
    case (.unanswered, .review?): tr("In review")
    case (.unanswered, .dismissed?), (.answered, .dismissed?): tr("Dismissed")
    default: label(question.status, now: now)
    }
  }

  /// At most 12 columns: the label column is 13 wide with its margin.
  static func label(_ status: QuestionStatus, now: Duration?) -> String {
    switch status {
    case .queued: tr("Queued")
    case .sending: tr("Sending…")
    // Its wait over, it is queued like any other until it can go.
    case .waiting(let until, _) where now.map { until <= $0 } ?? false: tr("Queued")
    case .waiting(let until, _):
      now.map { Catalogue.format(tr("Waiting %s"), Self.countdown(until - $0)) } ?? tr("Waiting")
    case .failed: tr("Failed")
    case .unanswered: tr("Unanswered")
    case .answered: tr("Answered")
    }
  }

  /// Whole seconds left, rounded up, as "4 s"; minutes past 99 s ("5 m"), so that the label
  /// keeps its width.
  static func countdown(_ left: Duration) -> String {
    let seconds = DurationValue.wholeSeconds(left, roundingUp: true)
    return seconds > 99 ? "\((seconds + 59) / 60) m" : "\(seconds) s"
  }

  /// The question index and line shown at the top for `position`.
  func top(_ position: ScrollPosition) -> (index: Int, line: Int) {
    if case .anchored(let id, let hint, let line) = position, let index = index(of: id, hint: hint)
    {
      return (index, line)
    }
    // Following: walk back from the newest until the area is full.
    var remaining = height
    var index = questions.count
    while index > 0 {
      let count = rows(of: questions[index - 1]).count
      if count >= remaining { return (index - 1, count - remaining) }
      remaining -= count
      index -= 1
    }
    return (0, 0)
  }

  /// The rows on screen, and whether more lie below them.
  func visibleRows(_ position: ScrollPosition) -> (rows: [ListRow], moreBelow: Bool) {
    guard !questions.isEmpty, height > 0 else { return ([], false) }
    var (index, line) = top(position)
    var shown: [ListRow] = []
    var cut = false
    while index < questions.count, shown.count < height {
      let rows = rows(of: questions[index]).dropFirst(line)
      let taken = rows.prefix(height - shown.count)
      cut = taken.count < rows.count
      shown += taken
      line = 0
      index += 1
    }
    if shown.count < height, case .anchored = position {
      // Scrolled past the end (the list shrank, the window grew): follow instead.
      return visibleRows(.following)
    }
    return (shown, cut || index < questions.count)
  }

  /// `position` moved by `lines` (negative: up), clamped; back to following at the end.
  func scrolled(_ position: ScrollPosition, by lines: Int) -> ScrollPosition {
    guard !questions.isEmpty else { return .following }
    var (index, line) = top(position)
    line += lines
    while line < 0 {
      guard index > 0 else {
        line = 0
        break
      }
      index -= 1
      line += rows(of: questions[index]).count
    }
    while index < questions.count {
      let count = rows(of: questions[index]).count
      guard line >= count else { break }
      line -= count
      index += 1
    }
    guard index < questions.count else { return .following }
    let anchored = ScrollPosition.anchored(id: questions[index].id, index: index, line: line)
    // Once the newest line is on screen, follow again.
    let following = top(.following)
    if (index, line) >= (following.index, following.line) { return .following }
    return anchored
  }

  func scrolledToTop() -> ScrollPosition {
    guard let first = questions.first else { return .following }
    let following = top(.following)
    if following == (0, 0) { return .following }
    return .anchored(id: first.id, index: 0, line: 0)
  }

  private func index(of id: Question.ID, hint: Int) -> Int? {
    if questions.indices.contains(hint), questions[hint].id == id { return hint }
    return questions.firstIndex { $0.id == id }
  }
}
