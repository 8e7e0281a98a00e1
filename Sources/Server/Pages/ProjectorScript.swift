/// The projector view's script, `Assets/screen.js` (`/assets/screen.js`): joins the room as a
/// screen (extension `audience`: it is not counted, and it is told how many are), and shows
/// the highlighted question and the most-voted live ones as they change. Here: its words.
package enum ProjectorScript {
  package static let messages = [
    scriptWord("Live"), scriptWord("Reconnecting…"), scriptWord("No question is being answered."),
    scriptWord("Votes"), scriptWord("In the room:"), scriptWord("No questions yet."),
  ]
}
