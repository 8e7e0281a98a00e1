/// F1 / `?` in the presenter's console (`qna present`): every key.
enum PresenterHelp {
  static let keys: [(String, String)] = [
    ("Tab, 1 2 3 4", "the lists: review, live, answered, dismissed"),
    ("↑ ↓ PgUp PgDn Home End", "select a question"),
    ("a", "approve the question in review"),
    ("d", "dismiss it (r restores it)"),
    ("h", "highlight it as now answering; again: stop"),
    ("m, Enter", "mark it answered"),
    ("t", "answer it with text, for the room"),
    ("p", "answer it with text, for the asker only"),
    ("Enter, Esc (answering)", "send the answer / drop it"),
    ("u", "undo the last action"),
    ("s, F2, Ctrl-O", "sort: by votes / newest first"),
    ("/", "search; Esc shows them all"),
    ("Ctrl-R Ctrl-L", "reconnect now / redraw the screen"),
    ("F1, ?", "this help; any key closes it"),
    ("q, Ctrl-C", "quit"),
    ("…", "an action the server has not confirmed yet"),
  ]
}
