/// F1 / `?`: every key, in a box over the question list.
package enum HelpOverlay {
  static var keys: [(String, String)] {
    [
      ("Enter", tr("ask the question typed")),
      ("Tab", tr("the room / your own questions")),
      ("↑ ↓ PgUp PgDn Home End", tr("select in the room; scroll your own")),
      ("+ (empty line), Ctrl-V", tr("vote / unvote the selected question")),
      ("F2, Ctrl-O", tr("sort the room: popular / recent")),
      ("/ (empty line)", tr("search the room; Esc shows it all")),
      ("/#label", tr("only the questions under that label")),
      ("Alt-L, F4", tr("ask under the next label, or none")),
      ("F5, Alt-P", tr("answer a poll (again: the next one)")),
      ("← → Ctrl-B Ctrl-F", tr("move by character")),
      ("Alt-B Alt-F", tr("move by word")),
      ("Ctrl-A Ctrl-E", tr("start / end of the line")),
      ("Backspace Delete", tr("delete a character")),
      ("Ctrl-U Ctrl-K Ctrl-W", tr("delete to the start / end, a word")),
      ("Ctrl-P Ctrl-N", tr("previous / next question asked")),
      ("Ctrl-T Ctrl-X", tr("ask again / drop the last refused one")),
      ("Ctrl-R Ctrl-L", tr("reconnect now / redraw the screen")),
      ("F1, ? (empty line)", tr("this help; ↑ ↓ scroll, Esc closes")),
      ("Ctrl-C, Ctrl-D (empty)", tr("quit")),
      ("F3", tr("the cursor on the last notice")),
      ("▲ 12", tr("votes; highlighted once you voted")),
      ("◆ ✓", tr("your question · answered")),
    ]
  }

  /// Glyphs the legend explains: not drawn, nor explained, for a screen reader.
  package static let glyphs: Set<Character> = ["▲", "◆", "✓", "↳", "●"]

  /// The keys as a help draws them: for a screen reader (`plain`), without the legend of
  /// glyphs it never sees.
  static func drawn(_ keys: [(String, String)], plain: Bool) -> [(String, String)] {
    plain ? keys.filter { !$0.0.contains(where: glyphs.contains) } : keys
  }

  /// How many of `count` keys fit in `height` rows: a box's borders take two (and a blank
  /// line, when all fit with it), a plain list's title one.
  static func fitting(_ count: Int, height: Int, plain: Bool) -> Int {
    min(count, max(0, height - (plain ? 1 : 2)))
  }

  /// The first key shown: `scroll`, within what there is to scroll.
  static func clamped(_ scroll: Int, count: Int, shown: Int) -> Int {
    min(max(0, scroll), max(0, count - shown))
  }

  /// Whether keys lie off the help, above or below those shown.
  static func more(above: Bool, below: Bool, arrows: Bool) -> String? {
    switch (above, below) {
    case (true, true): (arrows ? "↑↓ " : "") + tr("more above and below")
    case (true, false): (arrows ? "↑ " : "") + tr("more above")
    case (false, true): (arrows ? "↓ " : "") + tr("more below")
    case (false, false): nil
    }
  }

  /// The title: how to see the rest when not every key fits.
  static func heading(all: Bool) -> String { all ? tr("Keys") : tr("Keys (↑ ↓ scroll)") }

  /// For a screen reader: one "key: meaning" line each, no box of line-drawing characters
  /// (read aloud as noise), from the key `scroll`. Returns the first key's place.
  static func drawPlain(
    _ keys: [(String, String)], from scroll: Int = 0, into grid: inout ScreenGrid, top: Int,
    height: Int
  ) -> (row: Int, column: Int) {
    let lines = keys.map { localized(key: $0) + ": " + $1 }
    let shown = Self.fitting(lines.count, height: height, plain: true)
    let first = Self.clamped(scroll, count: lines.count, shown: shown)
    for offset in 0..<height {
      grid.write(String(repeating: " ", count: grid.columns), row: top + offset, column: 0)
    }
    var heading = Self.heading(all: shown == lines.count)
    if let hint = Self.more(above: first > 0, below: first + shown < lines.count, arrows: false) {
      heading += " · " + hint
    }
    grid.write(TextWidth.truncate(heading, to: grid.columns - 2), row: top, column: 1)
    for (index, line) in lines.dropFirst(first).prefix(shown).enumerated() {
      grid.write(TextWidth.truncate(line, to: grid.columns - 2), row: top + 1 + index, column: 1)
    }
    return (top + 1, 1)
  }

  /// A key's name with its words in the reader's language ("(empty line)").
  static func localized(key: String) -> String {
    key.replacing("(empty line)", with: tr("(empty line)"))
      .replacing("(empty)", with: tr("(empty)"))
  }

  /// The keys from `scroll` on, in a box. Returns where its first key shown starts: the
  /// cursor's place while it shows.
  @discardableResult
  static func draw(
    _ keys: [(String, String)] = keys, from scroll: Int = 0, into grid: inout ScreenGrid,
    top: Int, height: Int, palette: Palette
  ) -> (row: Int, column: Int) {
    let width = min(grid.columns - 2, 66)
    let keyWidth = min(24, width / 2 - 2)
    // Borders, a blank line when there is room for it, then as many keys as fit.
    let spacer = height >= keys.count + 3 ? 1 : 0
    let rows = min(height, keys.count + 2 + spacer)
    let shown = Self.fitting(keys.count, height: height, plain: false)
    let first = Self.clamped(scroll, count: keys.count, shown: shown)
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
    let fittedTitle = TextWidth.truncate(
      " " + Self.heading(all: shown == keys.count) + " ", to: width - 4)
    grid.write(
      fittedTitle, row: top, column: left + (width - TextWidth.of(fittedTitle)) / 2, style: border)
    // Keys off the box: said in its bottom border, at the right.
    if let more = Self.more(above: first > 0, below: first + shown < keys.count, arrows: true) {
      let hint = TextWidth.truncate(" " + more + " ", to: width - 4)
      grid.write(
        hint, row: top + rows - 1, column: left + width - 2 - TextWidth.of(hint), style: border)
    }
    for (index, (key, meaning)) in keys.dropFirst(first).prefix(shown).enumerated() {
      let y = top + 1 + spacer + index
      let meaningWidth = width - keyWidth - 5
      grid.write(
        TextWidth.truncate(localized(key: key), to: keyWidth), row: y, column: left + 2,
        style: CellStyle(bold: true))
      grid.write(
        TextWidth.truncate(meaning, to: meaningWidth), row: y, column: left + keyWidth + 3)
    }
    return (top + 1 + spacer, left + 2)
  }
}
