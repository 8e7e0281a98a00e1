/// The projector view's script, `Assets/screen.js` (`/assets/screen.js`): joins the room as a
/// screen (extension `audience`: it is not counted, and it is told how many are), and shows
/// the highlighted question and the most-voted live ones as they change. Here: its words.
package enum ProjectorScript {
  package static let messages = [
    scriptWord("Live"), scriptWord("Reconnecting…"), scriptWord("No question is being answered."),
    scriptWord("Votes"), scriptWord("In the room:"), scriptWord("No questions yet."),
    // Extension polls: the poll the room looks at, and its results (poll-view.js).
    scriptWord("Poll: answer on your phone"), scriptWord("Poll results"),
    scriptWord("Answers: %d"), scriptWord("No answers yet."), scriptWord("Average: %1$s of %2$d"),
    scriptWord("score %s"), scriptWord("Correct answer"), scriptWord("Correct order:"),
  ]
}
