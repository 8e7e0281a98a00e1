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
  package static let messages: [String] = [
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
    // The cards, their menus, the keys and undo (presenter-keys.js: the help's lines).
    scriptWord("Stop answering"), scriptWord("Now answering"), scriptWord("Answer privately…"),
    scriptWord("Let the asker be heard"), scriptWord("Star"), scriptWord("Unstar"),
    scriptWord("Starred"), scriptWord("Up the queue"), scriptWord("Down the queue"),
    scriptWord("Top of the queue"), scriptWord("More"), scriptWord("More actions"),
    scriptWord("Answer, for the asker only:"), scriptWord("Answer, for the room:"),
    scriptWord("Nothing to undo."), scriptWord("The last action cannot be undone."),
    scriptWord("Undo"), scriptWord("Undone:"), scriptWord("Keyboard shortcuts"),
    scriptWord("Select a question first (↑ ↓)."),
    scriptWord("the lists: review, live, answered, dismissed"), scriptWord("select a question"),
    scriptWord("approve the question in review"), scriptWord("dismiss it (r restores it)"),
    scriptWord("highlight it as now answering; again: stop"), scriptWord("mark it answered"),
    scriptWord("answer it with text, for the room"),
    scriptWord("answer it with text, for the asker only"),
    scriptWord("edit its text (the asker is told; the original is kept)"),
    scriptWord("silence its asker: their new questions go to review / no longer"),
    scriptWord("star it (presenters only see stars)"),
    scriptWord("put it next up (again: take it out)"),
    scriptWord("move it up or down the next-up queue, or to its top"),
    scriptWord("answer the next one now: it becomes now answering"),
    scriptWord("show the next-up queue to the room, or hide it"),
    scriptWord("undo the last action"), scriptWord("sort: by votes / newest first"),
    scriptWord("search; Esc shows them all"), scriptWord("this help; Esc closes"),
    // Extension polls (presenter-polls.js): the panel, its buttons, its form and its checks.
    scriptWord("Choose the kind of poll."), scriptWord("The question has at most %d characters."),
    scriptWord("The question is one line, without control, bidi or invisible characters."),
    scriptWord("The question is empty."),
    scriptWord("The question has a character with more than %d marks."),
    scriptWord("Give two options or more, one per line."),
    scriptWord("A poll has at most %d options."),
    scriptWord("Option %1$d has at most %2$d characters."),
    scriptWord("Option %d has control, bidi or invisible characters."),
    scriptWord("Option %d is empty."),
    scriptWord("Option %1$d has a character with more than %2$d marks."),
    scriptWord("Option %1$d is option %2$d again: each option is there once."),
    scriptWord("Only a choice or ranking poll has options."),
    scriptWord("An answer chooses 1 to %d options."),
    scriptWord("A word cloud takes 1 to %d entries from each attendee."),
    scriptWord("Only a multiple choice poll or a word cloud has a maximum."),
    scriptWord("A rating's scale goes from 0 or 1 up to at most %d."),
    scriptWord("Only a rating has a scale."),
    scriptWord("A time limit and a leaderboard are for quizzes: mark the correct options."),
    scriptWord("Only a choice or ranking poll can be a quiz."),
    scriptWord("Give the correct order: every option number once, first place first."),
    scriptWord("Mark the correct options."),
    scriptWord("A quiz's correct options are options of the poll, each once."),
    scriptWord("A single choice quiz has one correct option."),
    scriptWord("A quiz cannot need more options than an answer may choose."),
    scriptWord("A quiz's time limit is %1$d to %2$d seconds."),
    scriptWord("A poll's text is at most %d KiB together: shorten its options."),
    scriptWord("The maximum is a whole number."),
    scriptWord("An import is a JSON array of polls, as the export writes them."),
    scriptWord("A session has at most %d polls: delete one first."),
    scriptWord("Poll %1$d of the import: %2$s"), scriptWord("Not sent:"), scriptWord("Draft"),
    scriptWord("Open for answers"), scriptWord("Closed"), scriptWord("Results shown"),
    scriptWord("Results hidden"), scriptWord("up to %d entries"), scriptWord("Quiz"),
    scriptWord("%d s to answer"), scriptWord("Leaderboard with names"),
    scriptWord("Answers until %s"), scriptWord("Time is up."), scriptWord("Close"),
    scriptWord("Reopen"), scriptWord("Open"), scriptWord("Hide results"),
    scriptWord("Show results"), scriptWord("Reset…"), scriptWord("Delete…"),
    scriptWord("(no name)"), scriptWord("score %s"),
    scriptWord("At most %d polls are open at once: close one first."), scriptWord("Polls"),
    scriptWord("No polls yet: make one below, or import some."), scriptWord("Show the polls"),
    scriptWord("Hide the polls"), scriptWord("New poll"), scriptWord("Single choice"),
    scriptWord("Multiple choice"), scriptWord("Rating"), scriptWord("Ranking"),
    scriptWord("Word cloud"), scriptWord("Correct options"), scriptWord("Options, one per line"),
    scriptWord("Scale"), scriptWord("Correct order: option numbers, first place first"),
    scriptWord("Time limit in seconds (5 to 3600; empty: none)"),
    scriptWord("This poll is a quiz"), scriptWord("Create the poll"),
    scriptWord("Cancel"), scriptWord("Kind"), scriptWord("Question"),
    scriptWord("Entries per answer (1 to 3; empty: 3)"),
    scriptWord("Options one answer may choose (empty: all)"), scriptWord("Poll %1$d · %2$s"),
    scriptWord("Saved"), scriptWord("Change poll %d"), scriptWord("Save the poll"),
    scriptWord("Import, export, results"), scriptWord("Export the polls (JSON)"),
    scriptWord("Every poll's results:"), scriptWord("Import"),
    scriptWord("Import polls from a file (JSON, as exported)"), scriptWord("Or paste them here"),
    scriptWord("Imported: %d"), scriptWord("Delete poll %d, with its answers and results?"),
    scriptWord("Reset poll %d: its answers gone, its counts zero?"), scriptWord("Deleted"),
    scriptWord("No answers yet."), scriptWord("Polls: %1$d · open: %2$d"),
    scriptWord("Leaderboard"),
    // An open text's entries to moderate (presenter-poll-texts.js).
    scriptWord("Open text"), scriptWord("Approved"), scriptWord("Waiting for review: %d"),
    scriptWord("Nothing waits for review."), scriptWord("And %d more."),
    scriptWord("Live in the room"), scriptWord("Nothing in the room yet."),
    // A poll's results and kind, as poll-view.js draws them (AttendeeScript.messages has them).
    scriptWord("Answers: %d"), scriptWord("Average: %1$s of %2$d"), scriptWord("Correct answer"),
    scriptWord("Correct order:"), scriptWord("one choice"), scriptWord("up to %d choices"),
    scriptWord("a rating"), scriptWord("a ranking"), scriptWord("a few words"),
    scriptWord("a line of text"),
  ]
}
