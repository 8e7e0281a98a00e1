import CommandLineValues
import QnA

/// A drawn frame: the cells, and where the cursor goes (`nil`: hidden).
public struct Frame: Sendable, Equatable {
  public var grid: ScreenGrid
  public var cursor: (row: Int, column: Int)?

  public static func == (a: Frame, b: Frame) -> Bool {
    a.grid == b.grid && a.cursor?.row == b.cursor?.row && a.cursor?.column == b.cursor?.column
  }
}

/// `view(model) -> frame`: pure, so every screen is a snapshot test away. Work is bounded by
/// the screen's size, not by the number of questions.
public enum TerminalView {
  public static func render(_ model: TerminalModel) -> Frame {
    var grid = ScreenGrid(rows: model.rows, columns: model.columns)
    guard !model.isTooSmall else {
      let message = Catalogue.format(
        tr("Too small: %1$d×%2$d (qna needs %3$d×%4$d)"), model.columns, model.rows,
        TerminalModel.minimumColumns, TerminalModel.minimumRows)
      grid.write(TextWidth.truncate(message, to: model.columns), row: 0, column: 0)
      return Frame(grid: grid, cursor: nil)
    }
    let palette = Palette(colors: model.options.colors)
    if let projector = model.options.projector {
      drawProjector(model, projector, palette, into: &grid)
      return Frame(grid: grid, cursor: nil)
    }
    drawHeader(model, palette, into: &grid)
    drawAnnouncement(model, palette, into: &grid)
    drawBanner(model, palette, into: &grid)
    drawPollStrip(model, palette, into: &grid)
    let more: (above: Bool, below: Bool)
    // The focused question's first line shown: where the cursor goes when the list has the
    // focus, for screen readers and braille displays, which follow the cursor.
    let focusRow: Int?
    switch model.listView {
    case .room: (more, focusRow) = drawRoom(model, palette, into: &grid)
    case .mine:
      let below = drawList(model, palette, into: &grid)
      more = (false, below && model.scroll != .following)
      focusRow = model.questions.isEmpty ? nil : model.listTop
    }
    drawFooter(model, palette, more: more, into: &grid)
    var cursor = drawInput(model, palette, into: &grid)
    if model.showsJoin, let join = model.options.join {
      drawJoinOverlay(join, into: &grid)
      return Frame(grid: grid, cursor: nil)
    }
    if model.pollPanel != nil, !model.showsHelp {
      let panelCursor = drawPollPanel(model, palette, into: &grid)
      return Frame(grid: grid, cursor: panelCursor ?? cursor)
    }
    if model.showsHelp {
      let (keys, scroll, height) = (model.helpKeys, model.helpScroll, model.helpHeight)
      let first =
        model.options.screenReader
        ? HelpOverlay.drawPlain(keys, from: scroll, into: &grid, top: 1, height: height)
        : HelpOverlay.draw(
          keys, from: scroll, into: &grid, top: 1, height: height, palette: palette)
      return Frame(grid: grid, cursor: first)
    }
    if model.confirmingQuit {
      // On the question asked in the footer, after its words.
      let width = TextWidth.of(TextWidth.truncate(model.quitQuestion, to: grid.columns - 2))
      cursor = (model.rows - 2, min(grid.columns - 1, width + 1))
    } else if model.announcementHasFocus,
      model.options.screenReader ? model.announcement != nil : !model.notices.isEmpty
    {
      // F3: on the footer's announcement, for a braille display to show it.
      cursor = (model.rows - 2, 1)
    } else if model.listFocusIsShown, let focusRow {
      cursor = (focusRow, 0)
    }
    return Frame(grid: grid, cursor: cursor)
  }

  // MARK: Header

  static func drawHeader(_ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid) {
    let status = connectionWords(model)
    var column = grid.write(
      model.options.presenter ? " qna present" : " qna", row: 0, column: 0, style: palette.title)
    if model.options.presenter {
      let sort = model.order == .popular ? tr("by votes") : tr("newest first")
      column = grid.write(sort, row: 0, column: column + 2, style: CellStyle(bold: true))
    } else if model.state.room.isAvailable {
      // Which list, and in the room how it is sorted.
      let view =
        model.listView == .mine
        ? tr("Mine") : model.order == .popular ? tr("Room · popular") : tr("Room · recent")
      column = grid.write(view, row: 0, column: column + 2, style: CellStyle(bold: true))
    }
    // The state in words comes first, then the URL, then the reason for a disconnection.
    // The dot is colour for the eye; a screen reader would read its name.
    let core = (model.options.screenReader ? "" : "● ") + status.words
    let coreWidth = min(TextWidth.of(core), grid.columns - column - 2)
    let urlRoom = grid.columns - column - coreWidth - 5
    if urlRoom > 8, let session = model.state.session {
      // A session says what it is: its title and the code to join it (the URL is long).
      let name =
        Sanitizer.forScreen(session.title) + " · " + Sanitizer.forScreen(session.code)
        + (session.open ? "" : " · " + tr("closed"))
      column = grid.write(
        TextWidth.truncate(name, to: urlRoom), row: 0, column: column + 2,
        style: CellStyle(bold: true))
    } else if urlRoom > 8 {
      let url = Sanitizer.forScreen(model.options.url)
      column = grid.write(
        TextWidth.truncate(url, to: urlRoom), row: 0, column: column + 2, style: palette.faint)
    }
    var right = core
    if let detail = status.detail {
      let room = grid.columns - column - coreWidth - 6
      if room > 8 { right += " · " + TextWidth.truncate(Sanitizer.forScreen(detail), to: room) }
    }
    let rightWidth = min(TextWidth.of(right), grid.columns - column - 2)
    grid.write(
      TextWidth.truncate(right, to: rightWidth), row: 0, column: grid.columns - rightWidth - 1,
      style: palette.style(status.tone))
  }

  /// The connection in words, and what went wrong (shown when there is room).
  static func connectionWords(_ model: TerminalModel) -> (
    words: String, detail: String?, tone: Palette.Tone
  ) {
    let state = model.state
    // A screen reader's header changes with the connection only: no round trip that changes
    // with every ping, no seconds that tick.
    let reader = model.options.screenReader
    switch state.connection {
    case .idle: return (tr("starting…"), nil, .quiet)
    case .connecting(let attempt):
      return (
        attempt > 1
          ? Catalogue.format(tr("connecting (attempt %d)…"), attempt) : tr("connecting…"), nil,
        .warning
      )
    case .awaitingHandshake: return (tr("connected, waiting for the handshake…"), nil, .warning)
    case .ready(let id):
      // A screen reader would spell the connection's id out, letter by letter.
      let shortID = reader ? "" : " · #" + id.uuidString.prefix(8).lowercased()
      if reader, state.stalledFor != nil { return (tr("stalled: no pong"), nil, .warning) }
      if let stalled = state.stalledFor {
        return (
          Catalogue.format(
            tr("stalled: no pong for %d s"), DurationValue.wholeSeconds(stalled)) + shortID, nil,
          .warning
        )
      }
      let roundTrip =
        reader ? "" : state.roundTrip.map { " · \(DurationValue.milliseconds($0))" } ?? ""
      return (tr("connected") + roundTrip + shortID, nil, .good)
    case .waitingToRetry(let at, let attempt, let reason):
      let left =
        reader
        ? model.retrySaid?.seconds ?? 0
        : DurationValue.wholeSeconds(max(.zero, at - model.now), roundingUp: true)
      return (
        Catalogue.format(tr("reconnecting in %1$d s (attempt %2$d)"), left, attempt), reason, .bad
      )
    case .offline(let reason): return (tr("offline"), reason, .bad)
    }
  }

  // MARK: List

  /// Returns whether questions lie below the ones shown.
  static func drawList(_ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid)
    -> Bool
  {
    guard !model.questions.isEmpty else {
      let hint =
        " " + tr("No questions yet. Type one below and press Enter; F1 or ? shows every key.")
      grid.write(
        TextWidth.truncate(hint, to: grid.columns), row: model.listTop + 1, column: 0,
        style: palette.faint)
      return false
    }
    let list = model.questionList
    let (rows, moreBelow) = list.visibleRows(model.scroll)
    let textColumn = QuestionList.labelColumns
    for (offset, row) in rows.enumerated() {
      let y = model.listTop + offset
      let highlighted = model.isHighlighted(row.question)
      let textStyle = highlighted ? palette.highlight : CellStyle.plain
      switch row.part {
      case .first(let label, let text):
        let style = highlighted ? palette.highlight : palette.label(row.question.status)
        grid.write(" " + label, row: y, column: 0, style: style)
        if highlighted { grid.fill(row: y, from: 0, to: textColumn, style: style) }
        grid.write(text, row: y, column: textColumn, style: textStyle)
      case .continuation(let text):
        grid.write(text, row: y, column: textColumn, style: textStyle)
      case .reason(let text):
        grid.write(text, row: y, column: textColumn, style: palette.style(.bad))
      }
    }
    return moreBelow
  }

  // MARK: Footer

  static func drawFooter(
    _ model: TerminalModel, _ palette: Palette, more: (above: Bool, below: Bool),
    into grid: inout ScreenGrid
  ) {
    let y = model.rows - 2
    grid.fill(row: y, style: palette.bar)
    if model.confirmingQuit {
      let question = TextWidth.truncate(model.quitQuestion, to: grid.columns - 2)
      grid.write(" " + question, row: y, column: 0, style: palette.barAlert)
      grid.fill(row: y, style: palette.barAlert)
      return
    }
    let counts = model.state.counts
    var summary =
      " "
      + Catalogue.format(
        tr("%1$d asked · %2$d answered · %3$d pending"), counts.asked, counts.answered,
        counts.pending)
    if counts.failed > 0 { summary += " · " + Catalogue.format(tr("%d failed"), counts.failed) }
    if model.listView == .room { summary = roomSummary(model) }
    if model.options.presenter { summary = presenterSummary(model) }
    // Mine and the room say why nothing more can be asked (extension sessionState tells it
    // at once); the console's header says it for the presenter.
    if !model.options.presenter, let session = model.state.session, !session.open {
      summary += " · " + tr("session closed: no new questions")
    }
    if model.options.screenReader, model.roomIsStale, model.listView == .room {
      summary += " · " + tr("the room changed: any key shows it")
    }
    let scrollHint = Self.scrollHint(more, model)
    let end = grid.columns - TextWidth.of(scrollHint)
    if model.options.screenReader {
      // Two lines: the counts (and the room's news), then the announcement, whole.
      grid.fill(row: y - 1, style: palette.bar)
      grid.write(TextWidth.truncate(summary, to: end), row: y - 1, column: 0, style: palette.bar)
      if !scrollHint.isEmpty {
        grid.write(scrollHint, row: y - 1, column: end, style: palette.bar)
      }
      if let announcement = model.announcement {
        grid.write(
          TextWidth.truncate(announcement.text, to: grid.columns - 2), row: y, column: 1,
          style: announcement.isError ? palette.barAlert : palette.bar)
      }
      return
    }
    var column = 0
    if let notice = model.notices.last {
      let text = Sanitizer.forScreen(Catalogue.localized(notice))
      // A notice needs room; on a narrow terminal it goes first and the counts wait.
      if end - TextWidth.of(summary) - 3 >= min(24, TextWidth.of(text)) {
        column = grid.write(summary, row: y, column: 0, style: palette.bar)
        column = grid.write(" │", row: y, column: column, style: palette.bar)
      }
      let style = notice.kind == .error ? palette.barAlert : palette.bar
      grid.write(
        TextWidth.truncate(text, to: end - column - 2), row: y,
        column: column + 1, style: style)
    } else {
      grid.write(TextWidth.truncate(summary, to: end), row: y, column: 0, style: palette.bar)
    }
    if !scrollHint.isEmpty { grid.write(scrollHint, row: y, column: end, style: palette.bar) }
  }

  /// Whether more lies above or below the list shown: arrows, or words for a screen reader.
  static func scrollHint(_ more: (above: Bool, below: Bool), _ model: TerminalModel) -> String {
    let arrows = !model.options.screenReader
    let hint: String? =
      switch more {
      case (true, true): (arrows ? "↑↓ " : "") + tr("more above and below")
      case (true, false): (arrows ? "↑ " : "") + tr("more above")
      case (false, true):
        (arrows ? "↓ " : "") + (model.listView == .room ? tr("more below") : tr("more below: End"))
      case (false, false): nil
      }
    return hint.map { $0 + " " } ?? ""
  }

  // MARK: Input

  /// Returns the cursor's place.
  static func drawInput(_ model: TerminalModel, _ palette: Palette, into grid: inout ScreenGrid)
    -> (row: Int, column: Int)
  {
    let y = model.rows - 1
    if let search = model.search {
      let start = grid.write(model.searchPrompt, row: y, column: 0, style: palette.prompt)
      let width = max(1, grid.columns - start - 1)
      let cursorColumn = TextWidth.of(String(search.characters[..<search.cursor]))
      let x = drawLine(
        search, offset: max(0, cursorColumn - width + 1), from: start, to: start + width, row: y,
        into: &grid)
      return (y, min(x, grid.columns - 1))
    }
    if model.options.presenter, model.answering != nil || model.roomEdit != nil {
      let prompt =
        model.roomEditPrompt
        ?? (model.answering?.isPrivate == true ? model.privateAnswerPrompt : model.answerPrompt)
      let start = grid.write(prompt, row: y, column: 0, style: palette.prompt)
      let x = drawLine(
        model.editor, offset: model.inputOffset, from: start, to: grid.columns - 1, row: y,
        into: &grid)
      return (y, min(x, grid.columns - 1))
    } else if model.options.presenter {
      grid.write(
        " " + TextWidth.truncate(TerminalModel.presenterHint, to: grid.columns - 2), row: y,
        column: 0, style: palette.faint)
      return (y, 0)
    }
    let start = grid.write(model.inputPrompt, row: y, column: 0, style: palette.prompt)
    let cursorX = drawLine(
      model.editor, offset: model.inputOffset, from: start, to: start + model.inputWidth, row: y,
      into: &grid)
    if model.showsCounter {
      let count = model.editor.characters.count
      let counter = "\(count)/\(model.options.maxLength)"
      let style = count > model.options.maxLength ? palette.style(.bad) : palette.faint
      grid.write(counter, row: y, column: grid.columns - TextWidth.of(counter) - 1, style: style)
    }
    return (y, min(cursorX, grid.columns - 1))
  }

  /// A line being edited, from its column `offset` on, between two screen columns. Returns
  /// the cursor's column.
  private static func drawLine(
    _ editor: LineEditor, offset: Int, from start: Int, to end: Int, row y: Int,
    into grid: inout ScreenGrid
  ) -> Int {
    var column = 0
    var x = start
    var cursorX = start
    for (index, character) in editor.characters.enumerated() {
      if index == editor.cursor { cursorX = x }
      let width = TextWidth.of(character)
      defer { column += width }
      guard column >= offset else { continue }
      if x + width > end { break }
      x = grid.write(String(character), row: y, column: x, limit: end)
    }
    if editor.cursor == editor.characters.count { cursorX = x }
    return cursorX
  }
}
