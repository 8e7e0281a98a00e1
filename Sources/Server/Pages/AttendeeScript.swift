/// The attendee page's script, `Assets/room.js` (served as `/assets/room.js`): the room over
/// the room's socket as `qna` speaks it (tokens, resume, the compact room, votes, identity).
/// What is typed offline — questions and votes — waits in the browser's storage and goes
/// once, in order, when the socket is back. Content goes in as text, never as markup.
package enum AttendeeScript {
  /// The script's words, translated by the page (`data-messages`).
  package static let messages = [
    scriptWord("Live"), scriptWord("Reconnecting…"),
    scriptWord("Offline: your questions wait here."),
    scriptWord("Vote"), scriptWord("Votes"), scriptWord("Take back your vote"),
    scriptWord("Answer:"), scriptWord("Answered privately:"), scriptWord("Waiting to send"),
    scriptWord("Sent"), scriptWord("In review"), scriptWord("Live in the room"),
    scriptWord("Answered"), scriptWord("Dismissed"), scriptWord("Not sent:"),
    scriptWord("Try again"),
    scriptWord("Discard"), scriptWord("Your question was answered:"), scriptWord("Now answering:"),
    scriptWord("This session is closed: it takes no new questions."), scriptWord("yours"),
    scriptWord("Loading…"), scriptWord("No questions yet."),
    scriptWord("The presenter deleted this session."),
    scriptWord("The presenter reopened this session: it takes questions again."),
    scriptWord("Announcement:"), scriptWord("edited by the presenter"), scriptWord("next up"),
    scriptWord("No label"), scriptWord("All labels"),
    // Extension polls (poll-view.js draws them for the page).
    scriptWord("Send"), scriptWord("Your answer:"), scriptWord("Your answer, being sent:"),
    scriptWord("This poll is closed."), scriptWord("Poll %1$d · %2$s"), scriptWord("one choice"),
    scriptWord("up to %d choices"), scriptWord("a rating"), scriptWord("a ranking"),
    scriptWord("a few words"),
    scriptWord("Tap the options in order, first place first; tap one again to take it out."),
    scriptWord("Your rating: %1$d of %2$d"), scriptWord("Your words:"),
    scriptWord("Commas between entries, at most %d."),
    scriptWord("a line of text"), scriptWord("One line, at most %d characters."),
    // A poll's results (ProjectorScript.messages has them too).
    scriptWord("Answers: %d"), scriptWord("No answers yet."), scriptWord("Average: %1$s of %2$d"),
    scriptWord("score %s"), scriptWord("Correct answer"), scriptWord("Correct order:"),
  ]
}
