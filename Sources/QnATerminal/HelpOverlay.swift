/// F1 / `?`: every key, in a box over the question list.
enum HelpOverlay {
  static let keys: [(String, String)] = [
    ("Enter", "ask the question typed"),
    ("Tab", "the room / your own questions"),
    ("↑ ↓ PgUp PgDn Home End", "select in the room; scroll your own"),
    ("+ (empty line), Ctrl-V", "vote / unvote the selected question"),
    ("F2, Ctrl-O", "sort the room: popular / recent"),
    ("/ (empty line)", "search the room; Esc shows it all"),
    ("← → Ctrl-B Ctrl-F", "move by character"),
    ("Alt-B Alt-F", "move by word"),
    ("Ctrl-A Ctrl-E", "start / end of the line"),
    ("Backspace Delete", "delete a character"),
    ("Ctrl-U Ctrl-K Ctrl-W", "delete to the start / end, a word"),
    ("Ctrl-P Ctrl-N", "previous / next question asked"),
    ("Ctrl-T Ctrl-X", "ask again / drop the last refused one"),
    ("Ctrl-R Ctrl-L", "reconnect now / redraw the screen"),
    ("F1, ? (empty line)", "this help; any key closes it"),
    ("Ctrl-C, Ctrl-D (empty)", "quit"),
    ("▲ 12", "votes; highlighted once you voted"),
    ("◆ ✓", "your question · answered"),
  ]

  /// Returns where its first key starts: the cursor's place while it shows.
  @discardableResult
  static func draw(
    _ keys: [(String, String)] = keys, into grid: inout ScreenGrid, top: Int, height: Int,
    palette: Palette
  ) -> (row: Int, column: Int) {
    let width = min(grid.columns - 2, 66)
    let keyWidth = min(24, width / 2 - 2)
    // Borders, a blank line when there is room for it, then as many keys as fit.
    let spacer = height >= keys.count + 3 ? 1 : 0
    let rows = min(height, keys.count + 2 + spacer)
    let shown = rows - 2 - spacer
    let left = (grid.columns - width) / 2
    let border = palette.title
    for offset in 0..<rows {
      let y = top + offset
      // The whole row: text under the box must not peek out beside it.
      grid.write(String(repeating: " ", count: grid.columns), row: y, column: 0)
      if offset == 0 || offset == rows - 1 {
        let horizontal = String(repeating: "─", count: width - 2)
        let line = offset == 0 ? "┌" + horizontal + "┐" : "└" + horizontal + "┘"
        grid.write(line, row: y, column: left, style: border)
      } else {
        grid.write("│", row: y, column: left, style: border)
        grid.write("│", row: y, column: left + width - 1, style: border)
      }
    }
    let title = shown < keys.count ? " Keys (a taller terminal shows all) " : " Keys "
    let fittedTitle = TextWidth.truncate(title, to: width - 4)
    grid.write(
      fittedTitle, row: top, column: left + (width - TextWidth.of(fittedTitle)) / 2, style: border)
    for (index, (key, meaning)) in keys.prefix(max(0, shown)).enumerated() {
      let y = top + 1 + spacer + index
      let meaningWidth = width - keyWidth - 5
      grid.write(
        TextWidth.truncate(key, to: keyWidth), row: y, column: left + 2,
        style: CellStyle(bold: true))
      grid.write(
        TextWidth.truncate(meaning, to: meaningWidth), row: y, column: left + keyWidth + 3)
    }
    return (top + 1 + spacer, left + 2)
  }
}
