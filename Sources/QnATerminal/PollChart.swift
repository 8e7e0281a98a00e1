import QnA

/// A poll's results as lines of text, for the terminal and the projector: horizontal bars of
/// block characters with each count and its percentage (readable without colour), a rating's
/// average, a ranking's average score, a word cloud's words ranked by weight. With `words`
/// (screen-reader mode) each line says it instead of drawing it.
package enum PollChart {
  /// Eighths of a cell, for a bar's last cell.
  static let eighths: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

  /// One line per option (or value of the scale, or word): its label, its bar, its count.
  package static func lines(_ poll: RoomPoll, width: Int, words: Bool = false) -> [String] {
    guard let results = poll.results else { return [] }
    let total = results.answers
    switch poll.pollKind {
    case .text?:
      return entries(results, width: width, words: words)
    case .words?:
      // Ranked, each word's bar sized by its weight against the most counted.
      let top = max(1, results.words?.first?.count ?? 1)
      return (results.words ?? []).map { word in
        let text = Sanitizer.forScreen(word.text)
        return line(
          text, fraction: Double(word.count) / Double(top), figure: "\(word.count)", width: width,
          words: words,
          spoken: Catalogue.format(
            trn("%1$s: %2$d answer", "%1$s: %2$d answers", word.count), text, word.count))
      }
    case .rating?:
      let scale = poll.scale ?? PollScale(min: 1, max: 5)
      let counts = results.counts ?? []
      let labels = (0..<counts.count).map { String(scale.min + $0) }
      // A 0–100 slider's 101 values in ten bands, each labelled by its range.
      if counts.count > 11 {
        let bands = stride(from: 0, to: counts.count, by: 10).map { start in
          (
            "\(scale.min + start)–\(min(scale.max, scale.min + start + 9))",
            counts[start..<min(counts.count, start + 10)].reduce(0, +)
          )
        }
        return [average(counts, scale: scale, total: total)]
          + bars(bands, total: total, width: width, words: words)
      }
      return [average(counts, scale: scale, total: total)]
        + bars(Array(zip(labels, counts)), total: total, width: width, words: words)
    case .ranking?:
      // Average score per option, best first: points over those who answered.
      let options = poll.options ?? []
      let scored = zip(options, results.counts ?? []).sorted { $0.1 > $1.1 }
      let best = scored.first?.1 ?? 0
      return scored.enumerated().map { place, pair in
        let average = total > 0 ? Double(pair.1) / Double(total) : 0
        let label = "\(place + 1). " + Sanitizer.forScreen(pair.0)
        return line(
          label, fraction: best > 0 ? Double(pair.1) / Double(best) : 0,
          figure: Catalogue.format(tr("score %s"), decimal(average)), width: width,
          words: words)
      }
    default:
      let options = (poll.options ?? []).map { Sanitizer.forScreen($0) }
      let correct = Set(poll.correct ?? [])
      let labelled = options.enumerated().map { index, option in
        (correct.contains(index) ? "✓ " : "") + option
      }
      return bars(
        Array(zip(labelled, results.counts ?? [])), total: total, width: width, words: words)
    }
  }

  /// An open text's entries the room sees, newest first, each once with how many gave it;
  /// for presenters, those waiting for review after them.
  static func entries(_ results: PollResults, width: Int, words: Bool) -> [String] {
    func listed(_ entries: [PollWord]) -> [String] {
      entries.map { entry in
        let text = Sanitizer.forScreen(entry.text)
        let times = entry.count > 1 ? " ×\(entry.count)" : ""
        return words
          ? Catalogue.format(
            trn("%1$s (%2$d answer)", "%1$s (%2$d answers)", entry.count), text, entry.count)
          : TextWidth.truncate("• " + text, to: max(4, width - TextWidth.of(times))) + times
      }
    }
    var lines = listed(results.texts ?? [])
    if lines.isEmpty { lines.append(tr("No answers in the room yet.")) }
    if let held = results.held, held > 0 {
      lines.append(Catalogue.format(trn("%d waits for review:", "%d wait for review:", held), held))
      lines += listed(results.review ?? [])
    }
    return lines
  }

  /// A quiz's leaderboard, a line a place: "1. Ada  3" (anonymous places as such).
  package static func leaderboard(_ poll: RoomPoll) -> [String] {
    guard let board = poll.leaderboard, !board.isEmpty else { return [] }
    return [tr("Leaderboard")]
      + board.map { entry in
        let name = entry.name.map { Sanitizer.forScreen($0) } ?? tr("anonymous")
        return Catalogue.format(tr("%1$d. %2$s: %3$d right"), entry.place, name, entry.score)
      }
  }

  /// Bars for labelled counts, each against all the answers.
  static func bars(_ rows: [(String, Int)], total: Int, width: Int, words: Bool) -> [String] {
    rows.map { label, count in
      let percent = total > 0 ? Int((Double(count) * 100 / Double(total)).rounded()) : 0
      return line(
        label, fraction: total > 0 ? Double(count) / Double(total) : 0,
        figure: "\(count) · \(percent)%", width: width, words: words,
        spoken: Catalogue.format(
          trn("%1$s: %2$d answer, %3$d percent", "%1$s: %2$d answers, %3$d percent", count),
          label, count, percent))
    }
  }

  /// "label  ████▌      12 · 40%", in `width` columns: the label a third of the width at
  /// most, the figure after the bar.
  static func line(
    _ label: String, fraction: Double, figure: String, width: Int, words: Bool,
    spoken: String? = nil
  ) -> String {
    if words { return spoken ?? "\(label): \(figure)" }
    let labelWidth = min(TextWidth.of(label), max(6, width / 3))
    let shown = TextWidth.truncate(label, to: labelWidth)
    let padded = shown + String(repeating: " ", count: max(0, labelWidth - TextWidth.of(shown)))
    let barWidth = max(1, width - labelWidth - TextWidth.of(figure) - 3)
    return padded + " " + bar(fraction, width: barWidth) + " " + figure
  }

  /// A bar of `fraction` of `width` cells, in eighths, padded to its width.
  static func bar(_ fraction: Double, width: Int) -> String {
    let eighthsFilled = Int((max(0, min(1, fraction)) * Double(width * 8)).rounded())
    var bar = String(repeating: "█", count: eighthsFilled / 8)
    if eighthsFilled % 8 > 0 { bar.append(eighths[eighthsFilled % 8]) }
    return bar + String(repeating: " ", count: max(0, width - TextWidth.of(bar)))
  }

  /// A rating's average, in words.
  static func average(_ counts: [Int], scale: PollScale, total: Int) -> String {
    guard total > 0 else { return tr("No answers yet.") }
    let sum = counts.enumerated().reduce(0) { $0 + $1.element * (scale.min + $1.offset) }
    return Catalogue.format(
      trn("Average %1$s of %2$d (%3$d answer)", "Average %1$s of %2$d (%3$d answers)", total),
      decimal(Double(sum) / Double(total)), scale.max, total)
  }

  /// One decimal, as people write it.
  static func decimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
  }
}
