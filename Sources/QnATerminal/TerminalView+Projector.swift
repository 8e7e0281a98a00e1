import QnA

/// `qna screen`: the room for a projector, filling the terminal. The question being answered
/// in bold, the most-voted live ones under it, the room's size, and the join code with its
/// address and QR code (black on white, beside the room when there is width for it, else
/// under it when there is height, else left out for the address alone).
extension TerminalView {
  static func drawProjector(
    _ model: TerminalModel, _ screen: ProjectorScreen, _ palette: Palette,
    into grid: inout ScreenGrid
  ) {
    let state = model.state
    let qrWidth = screen.qr.first.map { TextWidth.of($0) } ?? 0
    // Beside the room when the room keeps 40 columns.
    let beside = qrWidth > 0 && grid.columns >= qrWidth + 43 && grid.rows >= screen.qr.count + 3
    let width = beside ? grid.columns - qrWidth - 3 : grid.columns
    let title = state.session.map { Sanitizer.forScreen($0.title) } ?? tr("Questions")
    _ = grid.write(
      TextWidth.truncate(" " + title, to: width), row: 0, column: 0, style: palette.title)
    var row = 2
    if let text = state.room.announcement?.text {
      // The presenter's announcement first, whole when it fits in three lines.
      for line in TextWrap.lines(Sanitizer.forScreen(text), width: width - 2).prefix(3) {
        grid.fill(row: row, to: width, style: palette.announcement)
        _ = grid.write(" " + line, row: row, column: 0, style: palette.announcement)
        row += 1
      }
      row += 1
    }
    row = drawProjectorPoll(state, width: width, from: row, palette: palette, into: &grid)
    let bold = CellStyle(bold: true)
    if let now = state.nowAnswering {
      _ = grid.write(" " + tr("Now answering:"), row: row, column: 0, style: palette.style(.quiet))
      row += 1
      for line in TextWrap.lines(Sanitizer.forScreen(now.question.content), width: width - 2)
        .prefix(max(1, grid.rows / 3))
      {
        _ = grid.write(" " + line, row: row, column: 1, style: bold)
        row += 1
      }
    } else {
      _ = grid.write(
        " " + tr("No question is being answered."), row: row, column: 0,
        style: palette.style(.quiet))
      row += 1
    }
    row += 1
    // The presenters' queue when they show it; else the most voted.
    let queued = state.room.nextUp.shown ? state.room.nextUp.ids : []
    let next =
      queued.isEmpty
      ? Array(
        state.roomEntries(.popular)
          .filter { $0.state == .live && !$0.question.answered && !$0.highlighted }
          .prefix(ProjectorScreen.upNext))
      : Array(queued.compactMap(state.roomEntry).prefix(ProjectorScreen.upNext))
    if !next.isEmpty, row < grid.rows - 2 {
      _ = grid.write(" " + tr("Up next"), row: row, column: 0, style: palette.style(.quiet))
      row += 1
    }
    for entry in next where row < grid.rows - 2 {
      let count = "▲ \(entry.votes)"
      let votes = count + String(repeating: " ", count: max(1, 7 - count.count))
      let text = Sanitizer.forScreen(entry.question.content)
      _ = grid.write(" " + TextWidth.truncate(votes + text, to: width - 2), row: row, column: 1)
      row += 1
    }
    drawJoin(model, screen, beside: beside, qrWidth: qrWidth, from: row, into: &grid)
  }

  /// The poll the room looks at (extension `polls`): the newest open one, else the newest
  /// whose results are shown; its question, and its results as bars while they are shown
  /// (half the screen at most). Returns the next free row.
  static func drawProjectorPoll(
    _ state: QnAState, width: Int, from start: Int, palette: Palette,
    into grid: inout ScreenGrid
  ) -> Int {
    let polls = state.room.polls.ordered
    guard
      let poll = polls.last(where: { $0.pollState == .open })
        ?? polls.last(where: { $0.shown && $0.results != nil })
    else { return start }
    var row = start
    let limit = start + max(3, grid.rows / 2)
    let heading =
      poll.pollState == .open ? tr("Poll: answer on your phone or in qna (F5)") : tr("Poll results")
    _ = grid.write(" " + heading, row: row, column: 0, style: palette.style(.quiet))
    row += 1
    for line in TextWrap.lines(Sanitizer.forScreen(poll.prompt), width: width - 2).prefix(2) {
      _ = grid.write(" " + line, row: row, column: 1, style: CellStyle(bold: true))
      row += 1
    }
    if let answers = poll.results?.answers {
      _ = grid.write(
        " " + Catalogue.format(trn("%d answer", "%d answers", answers), answers), row: row,
        column: 1, style: palette.faint)
      row += 1
    }
    for line in PollChart.lines(poll, width: width - 3) + PollChart.leaderboard(poll)
    where row < limit {
      _ = grid.write(" " + TextWidth.truncate(line, to: width - 2), row: row, column: 1)
      row += 1
    }
    return row + 1
  }

  /// The console's `j`: the join code, the address and its QR code over the screen, centred.
  static func drawJoinOverlay(_ join: ProjectorScreen, into grid: inout ScreenGrid) {
    let blank = String(repeating: " ", count: grid.columns)
    for row in 1..<(grid.rows - 1) { _ = grid.write(blank, row: row, column: 0) }
    let qrWidth = join.qr.first.map { TextWidth.of($0) } ?? 0
    let fits = join.qr.count + 4 <= grid.rows && qrWidth <= grid.columns
    var row = 1
    if let code = join.code {
      let text = Catalogue.format(tr("Join code: %s"), code)
      _ = grid.write(
        TextWidth.truncate(text, to: grid.columns), row: row,
        column: max(0, (grid.columns - TextWidth.of(text)) / 2), style: CellStyle(bold: true))
      row += 1
    }
    let address = TextWidth.truncate(join.joinAddress, to: grid.columns)
    _ = grid.write(address, row: row, column: max(0, (grid.columns - TextWidth.of(address)) / 2))
    row += 1
    guard fits else { return }
    let left = (grid.columns - qrWidth) / 2
    for (index, line) in join.qr.enumerated() {
      _ = grid.write(line, row: row + index, column: left, style: CellStyle(color: .inkOnPaper))
    }
  }

  private static func drawJoin(
    _ model: TerminalModel, _ screen: ProjectorScreen, beside: Bool, qrWidth: Int, from row: Int,
    into grid: inout ScreenGrid
  ) {
    let ink = CellStyle(color: .inkOnPaper)
    var qrTop: Int?
    var left = 0
    if beside {
      left = grid.columns - qrWidth - 1
      qrTop = 1
    } else if row + screen.qr.count + 3 <= grid.rows {
      left = max(0, (grid.columns - qrWidth) / 2)
      qrTop = row + 1
    }
    if let qrTop {
      for (index, line) in screen.qr.enumerated() {
        _ = grid.write(line, row: qrTop + index, column: left, style: ink)
      }
    }
    // The code and the address under the code (or at the foot), the room's size and the
    // connection on the last line.
    let infoColumn = qrTop == nil ? 1 : left
    let infoWidth = qrTop == nil ? grid.columns - 2 : qrWidth
    var infoRow = (qrTop ?? (grid.rows - 3)) + (qrTop == nil ? 0 : screen.qr.count)
    if let code = screen.code, infoRow < grid.rows - 1 {
      _ = grid.write(
        TextWidth.truncate(Catalogue.format(tr("Join code: %s"), code), to: infoWidth),
        row: infoRow, column: infoColumn, style: CellStyle(bold: true))
      infoRow += 1
    }
    if infoRow < grid.rows - 1 {
      _ = grid.write(
        TextWidth.truncate(screen.joinAddress, to: infoWidth), row: infoRow, column: infoColumn)
    }
    let connection = connectionWords(model)
    var foot = " " + connection.words
    if let audience = model.state.audience {
      foot =
        " "
        + Catalogue.format(
          trn("%d person in the room", "%d people in the room", audience), audience) + " ·" + foot
    }
    _ = grid.write(TextWidth.truncate(foot, to: grid.columns), row: grid.rows - 1, column: 0)
  }
}
