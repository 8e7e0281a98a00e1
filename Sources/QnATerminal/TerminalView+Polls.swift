import QnA

/// Polls in the terminal (extension `polls`): a strip under the header while a poll is open,
/// and the panel that answers one (F5) with its results as bars.
extension TerminalView {
  /// "Poll: Tabs or spaces? · F5 to answer" (which of several, whether answered).
  static func drawPollStrip(_ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid)
  {
    guard model.showsPollStrip else { return }
    let open = model.openPolls
    guard let first = open.first else { return }
    let answered = open.allSatisfy { model.state.room.polls.answer(to: $0.id) != nil }
    let label =
      " "
      + (open.count > 1
        ? Catalogue.format(trn("%d poll open:", "%d polls open:", open.count), open.count)
        : tr("Poll:")) + " "
    let hint = " · " + (answered ? tr("answered; F5 to change") : tr("F5 to answer"))
    let row = model.pollStripRow
    grid.fill(row: row, style: palette.announcement)
    let column = grid.write(
      TextWidth.truncate(label, to: grid.columns), row: row, column: 0, style: palette.announcement)
    let room = max(0, grid.columns - column - TextWidth.of(hint) - 1)
    let end = grid.write(
      TextWidth.truncate(Sanitizer.forScreen(first.prompt), to: room), row: row, column: column,
      style: palette.announcement)
    grid.write(
      TextWidth.truncate(hint, to: max(0, grid.columns - end)), row: row, column: end,
      style: palette.announcement)
  }

  /// The panel over the list: the poll's question, its options with the cursor and the
  /// answer being made, its results as bars when the room sees them, and the keys. Returns
  /// where the cursor goes (the option it is on, or the words being typed).
  static func drawPollPanel(_ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid)
    -> (row: Int, column: Int)?
  {
    guard let panel = model.pollPanel, let poll = model.panelPoll else { return nil }
    let top = model.listTop
    let bottom = model.rows - (model.options.screenReader ? 3 : 2)
    let width = grid.columns
    let blank = String(repeating: " ", count: width)
    for row in top..<bottom { _ = grid.write(blank, row: row, column: 0) }
    var row = top
    var cursor: (row: Int, column: Int)?
    func put(_ text: String, style: CellStyle = CellStyle(), indent: Int = 1) {
      guard row < bottom else { return }
      grid.write(
        TextWidth.truncate(text, to: max(0, width - indent - 1)), row: row, column: indent,
        style: style)
      row += 1
    }
    let words = model.options.screenReader
    let kindName =
      switch poll.pollKind {
      case .single?: tr("one choice")
      case .multiple?:
        Catalogue.format(tr("up to %d choices"), poll.max ?? poll.options?.count ?? 0)
      case .rating?: tr("a rating")
      case .ranking?: tr("a ranking")
      case .words?: tr("a few words")
      case .text?: tr("open text")
      case nil: tr("a kind this qna does not know")
      }
    put(Catalogue.format(tr("Poll %1$d · %2$s"), poll.n, kindName), style: palette.title, indent: 0)
    if model.options.presenter {
      let state =
        switch poll.pollState {
        case .draft?: tr("not opened yet")
        case .open?: tr("open")
        default: tr("closed")
        }
      put(
        state + " · " + (poll.shown ? tr("results shown to the room") : tr("results hidden")),
        style: palette.faint)
    }
    for line in TextWrap.lines(Sanitizer.forScreen(poll.prompt), width: width - 2).prefix(3) {
      put(line, style: CellStyle(bold: true))
    }
    row += 1
    let options = (poll.options ?? []).map { Sanitizer.forScreen($0) }
    switch model.options.presenter ? nil : poll.pollKind {
    case nil:
      // The console, or a kind this qna cannot answer: the options as the room sees them.
      for (index, option) in options.enumerated() { put("  \(index + 1) " + option) }
    case .single?, .multiple?, .ranking?:
      for (index, option) in options.enumerated() where row < bottom {
        let at = panel.cursor == index
        let mark: String
        if poll.pollKind == .ranking {
          mark = panel.chosen.firstIndex(of: index).map { "\($0 + 1)." } ?? "  "
        } else if poll.pollKind == .single {
          let chosen = panel.chosen.isEmpty ? at : panel.chosen.contains(index)
          mark = words ? (chosen ? tr("chosen") : "") : (chosen ? "(•)" : "( )")
        } else {
          let chosen = panel.chosen.contains(index)
          mark = words ? (chosen ? tr("marked") : "") : (chosen ? "[x]" : "[ ]")
        }
        if at { cursor = (row, 1) }
        put(
          (at && !words ? "› " : "  ") + "\(index + 1) " + mark + " " + option,
          style: at ? palette.selected : CellStyle())
      }
    case .rating?:
      let scale = poll.scale ?? PollScale(min: 1, max: 5)
      let value = panel.rating ?? scale.min
      cursor = (row, 1)
      put(
        words
          ? Catalogue.format(tr("Your rating: %1$d of %2$d"), value, scale.max)
          : "‹ \(value) ›  (\(scale.min)–\(scale.max))", style: palette.selected)
    case .words?, .text?:
      let label = (poll.pollKind == .text ? tr("Your answer:") : tr("Your words:")) + " "
      // The end of what is typed stays in sight, where the cursor is.
      var typed = Sanitizer.forScreen(panel.words.text)
      let room = max(4, width - 3 - TextWidth.of(label))
      if TextWidth.of(typed) > room {
        var tail: [Character] = []
        var used = 1
        for character in typed.reversed() {
          used += TextWidth.of(character)
          guard used <= room else { break }
          tail.append(character)
        }
        typed = "…" + String(tail.reversed())
      }
      cursor = (row, min(width - 1, 1 + TextWidth.of(label) + TextWidth.of(typed)))
      put(label + typed, style: palette.selected)
    }
    row += 1
    if let answer = model.state.room.polls.answer(to: poll.id) {
      let pending = model.state.room.polls.isPending(poll.id)
      put(
        (pending ? tr("Your answer, being sent:") : tr("Your answer:")) + " "
          + describe(answer, poll: poll), style: palette.faint)
    }
    if poll.pollState == .closed { put(tr("This poll is closed."), style: palette.faint) }
    if poll.results != nil {
      row += 1
      for line in PollChart.lines(poll, width: width - 2, words: words) { put(line) }
      for line in PollChart.leaderboard(poll) { put(line) }
    } else if poll.pollState != .draft {
      put(tr("The presenter shows the results when they choose."), style: palette.faint)
    }
    if bottom - 1 >= top {
      let keys =
        model.options.presenter
        ? (poll.pollKind == .text ? moderationKeys : consoleKeys)
        : answerKeys(poll)
      grid.fill(row: bottom - 1, style: palette.faint)
      grid.write(
        TextWidth.truncate(" " + keys, to: width - 1), row: bottom - 1, column: 0,
        style: palette.faint)
    }
    return cursor
  }

  /// The console's keys on a poll, in words.
  static var consoleKeys: String {
    tr("↑↓ poll · o opens / closes · s shows / hides results · r resets · X deletes · Esc")
  }

  /// The console's keys on an open text: its entries' moderation first.
  static var moderationKeys: String {
    tr("a approves, d dismisses the first waiting · D dismisses the newest · o s r X · Esc")
  }

  /// The keys that answer `poll`, in words.
  static func answerKeys(_ poll: RoomPoll) -> String {
    switch poll.pollKind {
    case .multiple?: tr("↑↓ move · Space marks · Enter sends · F5 next poll · Esc closes")
    case .ranking?: tr("↑↓ move · Space picks the next place · Enter sends · Esc closes")
    case .rating?: tr("←→ or digits set it · Enter sends · F5 next poll · Esc closes")
    case .words?: tr("Commas between entries · Enter sends · Esc closes")
    case .text?: tr("One line · Enter sends · F5 next poll · Esc closes")
    default: tr("↑↓ move · Enter sends · F5 next poll · Esc closes")
    }
  }

  /// An answer in words, the options by name.
  static func describe(_ value: PollValue, poll: RoomPoll) -> String {
    let options = (poll.options ?? []).map { Sanitizer.forScreen($0) }
    if let choices = value.choices {
      return choices.map { options.indices.contains($0) ? options[$0] : "?" }.joined(
        separator: poll.pollKind == .ranking ? " › " : ", ")
    }
    if let rating = value.rating { return String(rating) }
    if let text = value.text { return Sanitizer.forScreen(text) }
    return (value.words ?? []).map { Sanitizer.forScreen($0) }.joined(separator: ", ")
  }
}
