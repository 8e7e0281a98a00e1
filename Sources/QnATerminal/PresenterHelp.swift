/// F1 / `?` in the presenter's console (`qna present`): every key.
enum PresenterHelp {
  static var keys: [(String, String)] {
    [
      ("Tab, 1 2 3 4", tr("the lists: review, live, answered, dismissed")),
      ("↑ ↓ PgUp PgDn Home End", tr("select a question")),
      ("a", tr("approve the question in review")),
      ("e", tr("edit its text (the asker is told; the original is kept)")),
      ("d", tr("dismiss it (r restores it)")),
      ("h", tr("highlight it as now answering; again: stop")),
      ("m, Enter", tr("mark it answered")),
      ("t", tr("answer it with text, for the room")),
      ("p", tr("answer it with text, for the asker only")),
      ("Enter, Esc (answering)", tr("send the answer / drop it")),
      ("b", tr("announce to the room (a banner); an empty line clears it")),
      ("w", tr("add a word to the session's filter; -word takes it out")),
      ("x, X", tr("silence its asker: their new questions go to review / no longer")),
      ("*", tr("star it (presenters only see stars)")),
      ("n", tr("put it next up (again: take it out)")),
      ("[ ] T", tr("move it up or down the next-up queue, or to its top")),
      ("N", tr("answer the next one now: it becomes now answering")),
      ("v", tr("show the next-up queue to the room, or hide it")),
      ("l", tr("file it under one of the session's labels (empty: none)")),
      ("L", tr("add a label to the session; -label takes it out")),
      ("u", tr("undo the last action")),
      ("s, F2, Ctrl-O", tr("sort: by votes / newest first")),
      ("/", tr("search; Esc shows them all")),
      ("/#label", tr("only the questions under that label")),
      ("Ctrl-R Ctrl-L", tr("reconnect now / redraw the screen")),
      ("F1, ?", tr("this help; ↑ ↓ scroll, Esc closes")),
      ("j", tr("how attendees join: the address and its QR code")),
      (
        "F5, Alt-P",
        tr(
          "the polls: o opens / closes, s shows results, r resets, X deletes; an open text's a approves, d / D dismiss"
        )
      ),
      ("q, Ctrl-C", tr("quit")),
      ("F3", tr("the cursor on the last notice")),
      ("…", tr("an action the server has not confirmed yet")),
    ]
  }
}
