/// F1 / `?`: every key, in a box over the question list.
enum HelpOverlay {
  static let keys: [(String, String)] = [
    ("Enter", "ask the question typed"),
    ("← → Ctrl-B Ctrl-F", "move by character"),
    ("Alt-B Alt-F", "move by word"),
    ("Home End Ctrl-A Ctrl-E", "start / end of the line"),
    ("Backspace Delete", "delete a character"),
    ("Ctrl-U Ctrl-K", "delete to the start / end of the line"),
    ("Ctrl-W", "delete the word before the cursor"),
    ("Ctrl-P Ctrl-N", "previous / next question asked"),
    ("↑ ↓ PgUp PgDn wheel", "scroll the questions"),
    ("Home End (empty line)", "oldest / newest question"),
    ("Ctrl-R", "reconnect now"),
    ("Ctrl-L", "redraw the screen"),
    ("F1, ? (empty line)", "this help; any key closes it"),
    ("Ctrl-C, Ctrl-D (empty)", "quit"),
  ]

  static func draw(into grid: inout ScreenGrid, top: Int, height: Int, palette: Palette) {
    let keyWidth = 24
    let width = min(grid.columns - 2, 66)
    let rows = min(height, keys.count + 3)
    let left = (grid.columns - width) / 2
    let border = palette.title
    for offset in 0..<rows {
      let y = top + offset
      // The whole row: text under the box must not peek out beside it.
      grid.write(String(repeating: " ", count: grid.columns), row: y, column: 0)
      let isEdge = offset == 0 || offset == rows - 1
      if isEdge {
        let horizontal = String(repeating: "─", count: width - 2)
        let line = offset == 0 ? "┌" + horizontal + "┐" : "└" + horizontal + "┘"
        grid.write(line, row: y, column: left, style: border)
      } else {
        grid.write("│", row: y, column: left, style: border)
        grid.write("│", row: y, column: left + width - 1, style: border)
      }
    }
    let title = " Keys "
    grid.write(title, row: top, column: left + (width - title.count) / 2, style: border)
    for (index, (key, meaning)) in keys.enumerated() where index + 2 < rows - 1 {
      let y = top + 1 + index + 1
      grid.write(
        key, row: y, column: left + 2, style: CellStyle(bold: true), limit: left + keyWidth + 2)
      grid.write(meaning, row: y, column: left + keyWidth + 3, limit: left + width - 2)
    }
  }
}
