import CommandLineValues

/// The presenter page's script, `Assets/presenter.js` (`/assets/presenter.js`): the room over
/// the page's own WebSocket (a presenter's, authorised by the login cookie), every question in
/// every state, tabs with counts, sort and search, and each action posted to the JSON API.
/// Content goes in as text, never as markup. Here: its words, and what `printable` escapes.
package enum PresenterScript {
  /// What the script escapes: the sanitizer's scalars (`PrintableText.controlRanges`) less
  /// tabs and line breaks, which the page lays out.
  package static let printableRanges: [ClosedRange<UInt32>] = PrintableText.controlRanges
    .flatMap { range -> [ClosedRange<UInt32>] in
      var pieces: [ClosedRange<UInt32>] = []
      var start = range.lowerBound
      for kept: UInt32 in [0x09, 0x0A, 0x0D] where range.contains(kept) {
        if start < kept { pieces.append(start...(kept - 1)) }
        start = kept + 1
      }
      if start <= range.upperBound { pieces.append(start...range.upperBound) }
      return pieces
    }

  /// Those ranges as a JavaScript character class's body, `\u0000-\u0008…`, as
  /// `Assets/common.js` writes it (a test holds it to this).
  package static let printableClass = printableRanges.map { range in
    func unit(_ value: UInt32) -> String {
      let hex = String(value, radix: 16, uppercase: true)
      return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
    return range.count == 1
      ? unit(range.lowerBound) : unit(range.lowerBound) + "-" + unit(range.upperBound)
  }.joined()

  /// The script's words, translated by the page it runs in (`data-messages`): every
  /// `word('…')` and tab name of `source` (a test checks that none is missing).
  package static let messages = [
    scriptWord("Review"), scriptWord("Live"), scriptWord("Answered"), scriptWord("Dismissed"),
    scriptWord("Now answering:"),
    scriptWord("Answered privately:"), scriptWord("Answer:"), scriptWord("Approve"),
    scriptWord("Unhighlight"),
    scriptWord("Highlight"), scriptWord("Answer"), scriptWord("Answer with text…"),
    scriptWord("Dismiss"), scriptWord("Restore"),
    scriptWord("Only for the asker? (Cancel: the whole room sees it)"), scriptWord("Reconnecting…"),
    scriptWord("Filtered:"), scriptWord("Edit…"), scriptWord("Silence asker"),
    scriptWord("Next up"), scriptWord("Not next"), scriptWord("Show the queue"),
    scriptWord("Hide the queue"),
    scriptWord("New text of the question:"), scriptWord("edited"), scriptWord("Label…"),
    scriptWord("Label of the question (empty: none):"), scriptWord("All labels"),
  ]
}
