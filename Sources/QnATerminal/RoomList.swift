import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Where the room view's selection is: on a question, with its first line at a row of the
/// list area. The row stays put while the room reorders: the other questions move around the
/// selected one, never the view under the user's eyes.
public struct RoomSelection: Sendable, Equatable {
  public var id: UUID
  /// Where the question was in the list last time (a hint, checked before use); where the
  /// selection goes when the question leaves the list.
  var index: Int
  /// The list-area row its first line is on.
  var row: Int
}

/// One row of the room view.
struct RoomRow: Equatable {
  var entry: RoomEntry
  /// The first line (with the label) or a continuation.
  var isFirst: Bool
  var text: String
}

/// The room view's geometry: how entries wrap, and where the selection puts them. Work is
/// proportional to what is on screen, never to the size of the room.
struct RoomList {
  let entries: [RoomEntry]
  let width: Int
  let height: Int
  /// For a screen reader: the label in words before the text ("12 votes, voted, yours"),
  /// no glyphs and no columns of their own.
  var words = false
  /// For a screen reader in the presenter's console: questions with an action the server has
  /// not confirmed (drawn as "…" for the eye).
  var unconfirmed: Set<UUID> = []

  /// Columns before a question's text: margin, votes, marks and gaps.
  static let labelColumns = 11
  /// Lines an unselected question shows at most; the selected one shows all of it.
  static let collapsedLines = 3

  /// Where a question's text starts: after the label's columns, or after a margin in words.
  var textColumn: Int { words ? 1 : Self.labelColumns }
  var textWidth: Int { max(1, width - textColumn - 1) }

  /// The rows of a question: all of them when it is the selected one (`expanded`), at most
  /// `collapsedLines` otherwise.
  func rows(of entry: RoomEntry, expanded: Bool) -> [RoomRow] {
    let text =
      (words ? Self.spokenLabel(entry, unconfirmed: unconfirmed.contains(entry.id)) + ": " : "")
      + Self.statePrefix(entry.state)
      + Self.queuePrefix(entry)
      + Self.labelPrefix(entry.question.label)
      + Self.flaggedPrefix(entry.question.flagged)
      + Sanitizer.forScreen(entry.question.content)
      + (entry.question.edited == true ? " " + tr("(edited)") : "")
    var lines = wrapped(text, expanded: expanded)
    if let answer = entry.answer {
      lines += wrapped(
        QuestionList.answerLine(
          answer, isPrivate: entry.question.isPrivate == true, words: words),
        expanded: expanded)
    }
    return lines.enumerated().map {
      RoomRow(entry: entry, isFirst: $0.offset == 0, text: $0.element)
    }
  }

  /// `text` wrapped to the text's width, cut to `collapsedLines` (the last one ending in
  /// "…") unless `expanded`.
  private func wrapped(_ text: String, expanded: Bool) -> [String] {
    var lines = TextWrap.lines(text, width: textWidth)
    if !expanded, lines.count > Self.collapsedLines {
      lines = Array(lines.prefix(Self.collapsedLines))
      lines[lines.count - 1] = TextWidth.truncate(lines[lines.count - 1] + " …", to: textWidth)
    }
    return lines
  }

  func height(of index: Int, expanded: Bool = false) -> Int {
    rows(of: entries[index], expanded: expanded).count
  }

  /// Words before a question only its asker and the presenters see.
  static func statePrefix(_ state: QuestionState) -> String {
    switch state {
    case .review: tr("In review") + " · "
    case .dismissed: tr("Dismissed") + " · "
    case .live, .answered: ""
    }
  }

  /// A star (presenters only) and the question's place among the next ones (extension
  /// `queue`).
  static func queuePrefix(_ entry: RoomEntry) -> String {
    (entry.question.starred == true ? "★ " : "")
      + (entry.nextUp.map { Catalogue.format(tr("Next up %d"), $0) + " · " } ?? "")
  }

  /// The session's label the question is filed under (extension `labels`), in brackets.
  static func labelPrefix(_ label: String?) -> String {
    guard let label, !label.isEmpty else { return "" }
    return "[" + Sanitizer.forScreen(String(label.prefix(SessionLabels.maxLength))) + "] "
  }

  /// What the word filter matched (presenters only): why the question waits in review.
  static func flaggedPrefix(_ flagged: [String]?) -> String {
    guard let flagged, !flagged.isEmpty else { return "" }
    let matched = flagged.prefix(5).map { Sanitizer.forScreen(String($0.prefix(64))) }
    return Catalogue.format(tr("Filtered (%s)"), matched.joined(separator: ", ")) + " · "
  }

  /// The label of a question's first line: its votes ("▲ 12", drawn highlighted when this
  /// attendee's vote is among them), then whether it is the attendee's own and answered.
  static func label(_ entry: RoomEntry) -> (votes: String, marks: String) {
    let count = entry.votes > 9_999 ? "\(min(entry.votes / 1000, 999))k" : String(entry.votes)
    let votes = "▲ " + count + String(repeating: " ", count: max(0, 4 - count.count))
    return (votes, (entry.mine ? "◆" : " ") + (entry.question.answered ? "✓" : " "))
  }

  /// The label for a screen reader: the votes and the marks in words.
  static func spokenLabel(_ entry: RoomEntry, unconfirmed: Bool = false) -> String {
    var parts = [Catalogue.format(trn("%d vote", "%d votes", entry.votes), entry.votes)]
    if entry.voted { parts.append(tr("voted")) }
    if entry.votePending { parts.append(tr("vote not confirmed yet")) }
    if entry.mine { parts.append(tr("yours")) }
    if entry.question.answered { parts.append(tr("answered")) }
    if entry.highlighted { parts.append(tr("being answered now")) }
    if unconfirmed { parts.append(tr("action not confirmed yet")) }
    return parts.joined(separator: ", ")
  }

  /// Where the label's parts start: the votes after a margin, the marks after a gap.
  static let votesColumn = 1
  static let marksColumn = 8

  /// Where `selection` is in `entries` now: its question's index, or (when it left the
  /// list) whatever took its place.
  func resolve(_ selection: RoomSelection?) -> RoomSelection? {
    guard let selection, !entries.isEmpty else { return nil }
    if entries.indices.contains(selection.index), entries[selection.index].id == selection.id {
      return selection
    }
    if let index = entries.firstIndex(where: { $0.id == selection.id }) {
      return RoomSelection(id: selection.id, index: index, row: selection.row)
    }
    let index = min(selection.index, entries.count - 1)
    return RoomSelection(id: entries[index].id, index: index, row: selection.row)
  }

  /// The first question shown and its first line shown: the selection keeps its row unless
  /// there are not enough questions above it to fill the rows over it.
  func top(_ selection: RoomSelection?) -> (index: Int, line: Int) {
    guard let selection = resolve(selection) else { return (0, 0) }
    var index = selection.index
    var above = clampedRow(selection)
    while above > 0, index > 0 {
      index -= 1
      let count = height(of: index)
      if count >= above { return (index, count - above) }
      above -= count
    }
    return (index, 0)
  }

  /// The rows on screen, and whether questions lie above and below them.
  func visibleRows(_ selection: RoomSelection?) -> (rows: [RoomRow], above: Bool, below: Bool) {
    guard !entries.isEmpty, height > 0 else { return ([], false, false) }
    var (index, line) = top(selection)
    let above = index > 0 || line > 0
    var shown: [RoomRow] = []
    var cut = false
    let selected = resolve(selection)?.index
    while index < entries.count, shown.count < height {
      let rows = rows(of: entries[index], expanded: index == selected).dropFirst(line)
      let taken = rows.prefix(height - shown.count)
      cut = taken.count < rows.count
      shown += taken
      line = 0
      index += 1
    }
    return (shown, above, cut || index < entries.count)
  }

  /// The selection moved by `steps` questions (negative: up), its row following it while
  /// the question fits below it and above the list's end.
  func moved(_ selection: RoomSelection?, by steps: Int) -> RoomSelection? {
    guard !entries.isEmpty else { return nil }
    guard var current = resolve(selection) else {
      // Nothing selected yet: the first key selects the question at the top.
      return RoomSelection(id: entries[0].id, index: 0, row: 0)
    }
    for _ in 0..<abs(steps) {
      let next = current.index + (steps > 0 ? 1 : -1)
      guard entries.indices.contains(next) else { break }
      // Rows the list moves by: the height of what the selection passes over.
      let row = steps > 0 ? current.row + height(of: current.index) : current.row - height(of: next)
      current = RoomSelection(id: entries[next].id, index: next, row: row)
      current.row = clampedRow(current)
    }
    return current
  }

  /// The selection moved by about a screenful.
  func paged(_ selection: RoomSelection?, down: Bool) -> RoomSelection? {
    guard var current = resolve(selection) ?? moved(nil, by: 1) else { return nil }
    var passed = 0
    while passed < max(1, height - 1) {
      guard let next = moved(current, by: down ? 1 : -1), next.index != current.index else {
        break
      }
      passed += height(of: down ? current.index : next.index)
      current = next
    }
    return current
  }

  func first() -> RoomSelection? {
    entries.first.map { RoomSelection(id: $0.id, index: 0, row: 0) }
  }

  func last() -> RoomSelection? {
    guard let entry = entries.last else { return nil }
    var selection = RoomSelection(id: entry.id, index: entries.count - 1, row: height)
    selection.row = clampedRow(selection)
    return selection
  }

  /// A row that keeps the whole selected question in the list area (its top when taller).
  func clampedRow(_ selection: RoomSelection) -> Int {
    let tall = height(of: selection.index, expanded: true)
    let row = min(selection.row, max(0, height - tall))
    return max(0, row)
  }
}
