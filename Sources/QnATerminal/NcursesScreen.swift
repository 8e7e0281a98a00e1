import CNcurses

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The only code that talks to ncurses: takes the terminal, paints frames by repainting the
/// cells that changed, reads keys, gives the terminal back. Used from one thread only.
final class NcursesScreen {
  /// `TerminalFrontEnd` has checked that stdin and stdout are a terminal; what is left to
  /// fail is a terminal type ncurses does not know.
  struct StartError: Error, CustomStringConvertible {
    let terminalType: String

    var description: String {
      "cannot use terminal type '\(terminalType)' (check TERM), or use --headless"
    }
  }

  private let window: UnsafeMutablePointer<WINDOW>
  private let screen: OpaquePointer
  private var shown: ScreenGrid?
  let hasColors: Bool
  private var ended = false

  init(mouse: Bool) throws(StartError) {
    guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r"),
      let screen = newterm(nil, output, input)
    else {
      throw StartError(terminalType: ProcessInfo.processInfo.environment["TERM"] ?? "")
    }
    self.screen = screen
    window = qna_stdscr()
    raw()
    noecho()
    nonl()
    keypad(window, true)
    nodelay(window, true)
    set_escdelay(25)
    hasColors = has_colors()
    if hasColors {
      start_color()
      use_default_colors()
      let colors: [CellColor: Int32] = [
        .red: COLOR_RED, .green: COLOR_GREEN, .yellow: COLOR_YELLOW, .blue: COLOR_BLUE,
        .magenta: COLOR_MAGENTA, .cyan: COLOR_CYAN,
      ]
      for (color, value) in colors { init_pair(Int16(color.rawValue), Int16(value), -1) }
      init_pair(Int16(CellColor.inkOnPaper.rawValue), Int16(COLOR_BLACK), Int16(COLOR_WHITE))
    }
    if mouse { qna_enable_wheel() }
    define_key("\u{1B}[200~", Int32(QNA_KEY_PASTE_START))
    define_key("\u{1B}[201~", Int32(QNA_KEY_PASTE_END))
    // Bracketed paste: the terminal marks pasted text, so its line breaks do not ask.
    Self.writeToTerminal("\u{1B}[?2004h")
  }

  var size: (rows: Int, columns: Int) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    qna_window_size(window, &rows, &columns)
    return (Int(rows), Int(columns))
  }

  /// Paints `frame`, touching only the cells that differ from the last one painted.
  func paint(_ frame: Frame) {
    let changed = GridDiff.changedCells(from: shown, to: frame.grid)
    if shown?.rows != frame.grid.rows || shown?.columns != frame.grid.columns {
      werase(window)
    }
    let grid = frame.grid
    var text: [wchar_t] = []
    for index in changed {
      let cell = grid.cells[index]
      if cell.isContinuation { continue }
      text.removeAll(keepingCapacity: true)
      for scalar in cell.text.unicodeScalars { text.append(wchar_t(bitPattern: scalar.value)) }
      text.append(0)
      let style = cell.style
      var bits: UInt32 = 0
      if style.bold { bits |= UInt32(QNA_STYLE_BOLD) }
      if style.reverse { bits |= UInt32(QNA_STYLE_REVERSE) }
      if style.underline { bits |= UInt32(QNA_STYLE_UNDERLINE) }
      if style.dim { bits |= UInt32(QNA_STYLE_DIM) }
      let pair = hasColors ? Int16(style.color?.rawValue ?? 0) : 0
      _ = qna_put_cell(
        window, Int32(index / grid.columns), Int32(index % grid.columns), text, bits, pair)
    }
    if let cursor = frame.cursor {
      curs_set(1)
      wmove(window, Int32(cursor.row), Int32(cursor.column))
    } else {
      curs_set(0)
    }
    wnoutrefresh(window)
    doupdate()
    shown = grid
  }

  /// Ctrl-L: the terminal may show anything; paint every cell on the next frame.
  func forgetScreen() {
    shown = nil
    clearok(window, true)
  }

  /// The next key already typed, or `nil` when there is none.
  func readKey() -> Key? {
    while true {
      var character: wint_t = 0
      let result = wget_wch(window, &character)
      switch result {
      case ERR: return nil
      case KEY_CODE_YES:
        if let key = KeyDecoding.functionKey(Int32(character), wheel: qna_wheel_direction) {
          return key
        }
      default:
        if character == 0x1B { return readAfterEscape() }
        if let key = KeyDecoding.character(UInt32(character)) { return key }
      }
    }
  }

  /// Esc then a character is how terminals send Alt-character. Esc `[` or Esc `O` starts a
  /// sequence ncurses did not recognise (a key this terminal type does not describe): it is
  /// read to its end and dropped, never typed. Anything else after Esc is left for the next
  /// read.
  private func readAfterEscape() -> Key {
    var next: wint_t = 0
    let result = wget_wch(window, &next)
    guard result == OK else {
      if result == KEY_CODE_YES { ungetch(Int32(next)) }
      return .escape
    }
    if next == 0x5B || next == 0x4F {
      // CSI: parameter and intermediate bytes (0x20–0x3F), then a final byte (0x40–0x7E).
      var byte: wint_t = 0
      while wget_wch(window, &byte) == OK, (0x20...0x3F).contains(byte) {}
      return .escape
    }
    guard next >= 0x20, next != 0x7F, let scalar = Unicode.Scalar(next) else {
      unget_wch(wchar_t(bitPattern: next))
      return .escape
    }
    return .alt(Character(scalar))
  }

  /// Gives the terminal back as it was. Safe to call more than once.
  func end() {
    guard !ended else { return }
    ended = true
    Self.writeToTerminal("\u{1B}[?2004l")
    endwin()
    delscreen(screen)
  }

  private static func writeToTerminal(_ sequence: String) {
    var bytes = Array(sequence.utf8)
    _ = write(STDOUT_FILENO, &bytes, bytes.count)
  }
}
