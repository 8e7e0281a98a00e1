import Foundation
import QnA
import QnAStore

/// The report's polls: each poll the room saw (drafts never opened are left out) with its
/// results as bars, a table row per option, value, word or entry.
enum ReportPolls {
  /// Entries of an open text listed, at most (the export has them all).
  static let maxEntries = 50

  static func section(_ data: SessionReportData, words: PageWords) -> String {
    let polls = data.polls.filter { $0.pollState != .draft }
    guard !polls.isEmpty else {
      return SessionReport.section(
        "polls", words.t("Polls"), SessionReport.note(words.t("No polls.")))
    }
    let articles = polls.map { poll in
      let answers = poll.results?.answers ?? 0
      let about = words.format(
        words.plural("%1$s · %2$d answer", "%1$s · %2$d answers", answers), kindName(poll, words),
        answers)
      return "<article class=\"poll\"><h3>\(poll.n). <bdi>\(HTML.escape(poll.prompt))</bdi></h3>"
        + "<p class=\"meta\">\(HTML.escape(about))</p>"
        + results(poll, entries: data.entries[poll.id] ?? [], words: words)
        + leaderboard(poll, words: words) + "</article>"
    }
    return SessionReport.section("polls", words.t("Polls"), articles.joined(separator: "\n"))
  }

  static func kindName(_ poll: RoomPoll, _ words: PageWords) -> String {
    let quiz = poll.quiz == true ? " · " + words.t("quiz") : ""
    let name =
      switch poll.pollKind {
      case .single?: words.t("single choice")
      case .multiple?: words.t("multiple choice")
      case .rating?: words.t("rating")
      case .ranking?: words.t("ranking")
      case .words?: words.t("word cloud")
      case .text?: words.t("open text")
      case nil: poll.kind
      }
    return name + quiz
  }

  /// The results as bars: a choice's options (the correct ones marked), a rating's values
  /// (a slider's in bands of ten) and its average, a ranking's average scores, a word
  /// cloud's words, an open text's live entries.
  static func results(_ poll: RoomPoll, entries: [PollTextEntry], words: PageWords) -> String {
    guard let results = poll.results else { return "" }
    let answers = results.answers
    let correct = Set(poll.correct ?? [])
    var rows: [Row] = []
    var note = ""
    switch poll.pollKind {
    case .single?, .multiple?:
      rows = zip(poll.options ?? [], results.counts ?? []).enumerated().map { index, pair in
        Row(
          label: pair.0, mark: correct.contains(index) ? "✓ " : "",
          fraction: fraction(pair.1, answers),
          figure: "\(pair.1) · "
            + SessionReport.percent(pair.1, of: answers))
      }
    case .rating?:
      let scale = poll.scale ?? PollScale(min: 1, max: 5)
      let counts = results.counts ?? []
      let sum = counts.enumerated().reduce(0) { $0 + $1.element * (scale.min + $1.offset) }
      if answers > 0 {
        note = words.format(
          words.t("Average %1$s of %2$d."), decimal(Double(sum) / Double(answers)), scale.max)
      }
      let step = counts.count > 11 ? 10 : 1
      rows = stride(from: 0, to: counts.count, by: step).map { start in
        let count = counts[start..<min(counts.count, start + step)].reduce(0, +)
        let label =
          step == 1
          ? "\(scale.min + start)" : "\(scale.min + start)–\(min(scale.max, scale.min + start + 9))"
        return Row(
          label: label, mark: "", fraction: fraction(count, answers),
          figure: "\(count) · " + SessionReport.percent(count, of: answers))
      }
    case .ranking?:
      let scored = zip(poll.options ?? [], results.counts ?? []).enumerated()
        .sorted { $0.element.1 > $1.element.1 }
      let best = scored.first?.element.1 ?? 0
      note = words.t("Average score: first place earns as many points as there are options.")
      rows = scored.map { index, pair in
        Row(
          label: pair.0, mark: correct.isEmpty ? "" : "\(index + 1). ",
          fraction: fraction(pair.1, best),
          figure: answers > 0 ? decimal(Double(pair.1) / Double(answers)) : "0")
      }
    case .words?:
      let top = results.words?.first?.count ?? 0
      rows = (results.words ?? []).map {
        Row(label: $0.text, mark: "", fraction: fraction($0.count, top), figure: "\($0.count)")
      }
    case .text?:
      // The most given first, as the room's list has them (the order given among equals).
      let live = entries.enumerated().filter { $0.element.state == PollTextState.live.rawValue }
        .sorted { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }.map(\.element)
      let kept = entries.count - live.count
      let top = live.map(\.count).max() ?? 0
      rows = live.prefix(maxEntries).map {
        Row(label: $0.text, mark: "", fraction: fraction($0.count, top), figure: "\($0.count)")
      }
      if kept > 0 || live.count > maxEntries {
        note = words.format(
          words.t("%1$d entries shown to the room (%2$d listed); %3$d held or dismissed."),
          live.count, min(live.count, maxEntries), kept)
      }
    case nil: break
    }
    let table =
      rows.isEmpty
      ? ""
      // The prompt isolated as <bdi> would isolate it (tidy reads no <bdi> in a caption).
      : "<table class=\"bars\"><caption class=\"hidden\" dir=\"auto\">"
        + "\(HTML.escape(poll.prompt))</caption><tbody>"
        + rows.map { row in
          "<tr><th scope=\"row\">\(HTML.escape(row.mark))<bdi>\(HTML.escape(row.label))</bdi></th>"
            + "<td class=\"bar-cell\">\(ReportCharts.bar(row.fraction))</td>"
            + "<td class=\"num\">\(HTML.escape(row.figure))</td></tr>"
        }.joined() + "</tbody></table>"
    return (note.isEmpty ? "" : SessionReport.note(note)) + table
  }

  /// A closed quiz's leaderboard, as presenters saw it.
  static func leaderboard(_ poll: RoomPoll, words: PageWords) -> String {
    guard let board = poll.leaderboard, !board.isEmpty else { return "" }
    let items = board.map { entry in
      let name =
        entry.name.map { "<bdi>" + HTML.escape($0) + "</bdi>" }
        ?? HTML.escape(words.t("anonymous"))
      return "<li value=\"\(entry.place)\">\(name): "
        + HTML.escape(words.format(words.plural("%d right", "%d right", entry.score), entry.score))
        + "</li>"
    }
    let heading = words.t("Leaderboard")
    return "<h4>\(HTML.escape(heading))</h4><ol class=\"board\">"
      + items.joined() + "</ol>"
  }

  struct Row {
    var label: String
    /// Before the label: a correct option's tick, a ranking quiz's place.
    var mark: String
    var fraction: Double
    var figure: String
  }

  static func fraction(_ part: Int, _ whole: Int) -> Double {
    whole > 0 ? Double(part) / Double(whole) : 0
  }

  static func decimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
  }
}
