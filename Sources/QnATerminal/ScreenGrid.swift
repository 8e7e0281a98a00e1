/// The colours the view uses; the backend maps them to terminal colour pairs.
public enum CellColor: UInt8, Sendable, CaseIterable {
  case red = 1
  case green
  case yellow
  case blue
  case magenta
  case cyan
  /// Black on white whatever the terminal's theme: a QR code's modules.
  case inkOnPaper
}

/// How a cell is drawn. Monochrome frames use only the attributes.
public struct CellStyle: Sendable, Hashable {
  public var color: CellColor?
  public var bold = false
  public var reverse = false
  public var underline = false
  public var dim = false

  public init(
    color: CellColor? = nil, bold: Bool = false, reverse: Bool = false,
    underline: Bool = false, dim: Bool = false
  ) {
    self.color = color
    self.bold = bold
    self.reverse = reverse
    self.underline = underline
    self.dim = dim
  }

  public static let plain = CellStyle()
}

/// One terminal cell: a spacing character with its combining marks, or nothing where the
/// right half of a wide character sits.
public struct Cell: Sendable, Hashable {
  public var text: String
  public var style: CellStyle

  public init(_ text: String, style: CellStyle = .plain) {
    self.text = text
    self.style = style
  }

  public static let blank = Cell(" ")
  /// The right half of a wide character: drawn by the cell on its left.
  public var isContinuation: Bool { text.isEmpty }
}

/// A frame of the screen: rows × columns cells, written by the view, diffed by the backend.
public struct ScreenGrid: Sendable, Equatable {
  public let rows: Int
  public let columns: Int
  public private(set) var cells: [Cell]

  public init(rows: Int, columns: Int) {
    self.rows = max(0, rows)
    self.columns = max(0, columns)
    cells = Array(repeating: .blank, count: self.rows * self.columns)
  }

  public subscript(row: Int, column: Int) -> Cell {
    cells[row * columns + column]
  }

  /// Writes `text` from (`row`, `column`), cutting at `limit` columns (the row's end by
  /// default); a wide character that would straddle the limit becomes a blank. Returns the
  /// column after the last one written.
  @discardableResult
  public mutating func write(
    _ text: some StringProtocol, row: Int, column: Int, style: CellStyle = .plain,
    limit: Int? = nil
  ) -> Int {
    let end = min(limit ?? columns, columns)
    guard row >= 0, row < rows else { return column }
    var x = column
    var unit = ""
    var unitWidth = 0
    func flush() {
      guard unitWidth > 0 else { return }
      if x + unitWidth <= end, x >= 0 {
        cells[row * columns + x] = Cell(unit, style: style)
        if unitWidth == 2 { cells[row * columns + x + 1] = Cell("", style: style) }
      } else if x < end, x >= 0 {
        cells[row * columns + x] = Cell(" ", style: style)
      }
      x += unitWidth
      unit = ""
      unitWidth = 0
    }
    for scalar in text.unicodeScalars {
      let width = TextWidth.of(scalar)
      if width == 0 {
        // A combining mark rides on the cell before it (ncurses takes up to four).
        if unitWidth > 0 && unit.unicodeScalars.count < 5 { unit.unicodeScalars.append(scalar) }
        continue
      }
      flush()
      if x >= end { return end }
      unit.unicodeScalars.append(scalar)
      unitWidth = min(width, 2)
    }
    flush()
    return min(x, end)
  }

  /// Paints `style` over a stretch of a row (text unchanged).
  public mutating func fill(row: Int, from start: Int = 0, to end: Int? = nil, style: CellStyle) {
    guard row >= 0, row < rows else { return }
    for column in max(0, start)..<min(end ?? columns, columns) {
      cells[row * columns + column].style = style
    }
  }

  /// The rows as text, trailing blanks trimmed: what snapshot tests compare.
  public var lines: [String] {
    (0..<rows).map { row in
      var line = ""
      for column in 0..<columns { line += self[row, column].text }
      while line.last == " " { line.removeLast() }
      return line
    }
  }
}
