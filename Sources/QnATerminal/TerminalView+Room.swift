import QnA

/// The room view, the "now answering" banner and the room's footer.
extension TerminalView {
  /// The question being answered now, pinned under the header in both views.
  static func drawBanner(_ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid) {
    guard model.showsBanner, let answering = model.state.nowAnswering else { return }
    let label =
      " " + (answering.mine ? tr("Now answering your question:") : tr("Now answering:")) + " "
    let text = Sanitizer.forScreen(answering.question.content)
    drawBar(label, text, row: model.bannerRow, style: palette.highlight, into: &grid)
  }

  /// The presenter's announcement (extension `announcements`), right under the header.
  static func drawAnnouncement(
    _ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid
  ) {
    guard model.showsAnnouncement, let text = model.state.room.announcement?.text else { return }
    drawBar(
      " " + tr("Announcement:") + " ", Sanitizer.forScreen(text), row: 1,
      style: palette.announcement, into: &grid)
  }

  /// A label and a text across one whole row, cut to its width.
  private static func drawBar(
    _ label: String, _ text: String, row: Int, style: CellStyle, into grid: inout ScreenGrid
  ) {
    grid.fill(row: row, style: style)
    let column = grid.write(
      TextWidth.truncate(label, to: grid.columns), row: row, column: 0, style: style)
    grid.write(
      TextWidth.truncate(text, to: max(0, grid.columns - column - 1)), row: row, column: column,
      style: style)
  }

  /// Returns whether questions lie above and below the ones shown, and the first row of the
  /// selected question shown.
  static func drawRoom(_ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid)
    -> (more: (above: Bool, below: Bool), selectedRow: Int?)
  {
    guard !model.roomEntries.isEmpty else {
      let hint =
        !model.filter.isEmpty
        ? " "
          + Catalogue.format(
            tr("No question matches “%s”. Esc shows them all."), Sanitizer.forScreen(model.filter))
        : model.state.room.seq == nil
          ? " " + tr("Joining the room…")
          : model.options.presenter
            ? " " + tr("No questions in this list. Tab shows the next; ? shows every key.")
            : " "
              + tr(
                "No questions in the room yet. Type one below and press Enter; F1 shows every key.")
      grid.write(
        TextWidth.truncate(hint, to: grid.columns), row: model.listTop + 1, column: 0,
        style: palette.faint)
      return ((false, false), nil)
    }
    let list = model.roomList
    let (rows, above, below) = list.visibleRows(model.selection)
    let selected = model.selection?.id
    var selectedRow: Int?
    for (offset, row) in rows.enumerated() {
      let y = model.listTop + offset
      let entry = row.entry
      if entry.id == selected, selectedRow == nil { selectedRow = y }
      var textStyle = entry.question.answered ? palette.faint : CellStyle.plain
      if entry.id == selected { textStyle = palette.selected }
      if row.isFirst, !list.words {
        let label = RoomList.label(entry)
        grid.write(
          label.votes, row: y, column: RoomList.votesColumn,
          style: votesStyle(entry, model, palette))
        // An action the server has not confirmed yet: its question is marked until it is.
        let pending = model.state.desk.isPending(entry.id)
        grid.write(
          pending ? "…" + label.marks.dropFirst() : label.marks, row: y,
          column: RoomList.marksColumn,
          style: entry.question.answered ? palette.faint : palette.title)
      }
      if entry.id == selected {
        grid.fill(
          row: y, from: row.isFirst ? list.textColumn - 1 : 0, to: grid.columns,
          style: textStyle)
      }
      grid.write(row.text, row: y, column: list.textColumn, style: textStyle)
    }
    return ((above, below), selectedRow)
  }

  /// The votes: marked while they rise, highlighted when the attendee's vote is among them
  /// (underlined until the server confirms it), dim once answered.
  private static func votesStyle(_ entry: RoomEntry, _ model: TerminalModel, _ palette: Palette)
    -> CellStyle
  {
    if model.isRising(entry) { return palette.rising }
    var style = entry.voted ? palette.voted : entry.question.answered ? palette.faint : .plain
    if entry.votePending { style.underline = true }
    return style
  }

  /// The presenter's footer: the lists with their counts, and actions not yet confirmed.
  static func presenterSummary(_ model: TerminalModel) -> String {
    var summary = " " + model.tabSummary
    let pending = model.state.desk.pendingCount
    if pending > 0 {
      summary +=
        " · "
        + Catalogue.format(
          trn("%d action not sent yet", "%d actions not sent yet", pending), pending)
    }
    if !model.filter.isEmpty { summary += " · " + matches(model.roomEntries.count) }
    return summary
  }

  /// The room's numbers, for the footer.
  static func roomSummary(_ model: TerminalModel) -> String {
    let room = model.state.room
    // A screen reader's count is the list's as drawn: it changes when the list does.
    let size = model.options.screenReader ? model.roomSize : room.questions.count
    // It counts questions, not people ("2 in the room" read as two attendees).
    var summary =
      " " + Catalogue.format(trn("%d question in the room", "%d questions in the room", size), size)
    if model.roomVoted > 0 {
      summary +=
        " · " + Catalogue.format(trn("%d voted", "%d voted", model.roomVoted), model.roomVoted)
    }
    if !model.filter.isEmpty { summary += " · " + matches(model.roomEntries.count) }
    let pending = model.state.counts.pending + model.state.counts.failed
    if pending > 0 {
      summary +=
        " · "
        + Catalogue.format(trn("%d of yours not sent", "%d of yours not sent", pending), pending)
    }
    return summary
  }

  /// How many questions a search finds.
  private static func matches(_ count: Int) -> String {
    // TRANSLATORS: how many questions match a search ("1 match", "3 match").
    Catalogue.format(trn("%d match", "%d match", count), count)
  }
}
