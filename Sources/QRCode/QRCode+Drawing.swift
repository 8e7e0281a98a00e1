/// A code drawn as text and as SVG, each with the light quiet zone a reader needs around it
/// (four modules, §6.3.8).
extension QRCode {
  public static let quietZone = 4

  /// Two rows of modules per line of text in Unicode half blocks: `▀` dark above, `▄` dark
  /// below, `█` both, a space neither. Dark means the terminal's foreground: draw the lines
  /// with a dark foreground on a light background, whatever the terminal's own colours.
  public func halfBlockLines(quietZone: Int = QRCode.quietZone) -> [String] {
    let range = -quietZone..<(size + quietZone)
    return stride(from: range.lowerBound, to: range.upperBound, by: 2).map { y in
      String(
        range.map { x -> Character in
          switch (self[x, y], self[x, y + 1]) {
          case (true, true): "█"
          case (true, false): "▀"
          case (false, true): "▄"
          case (false, false): " "
          }
        })
    }
  }

  /// The lines with ANSI colours that make dark modules black on white, for a terminal of any
  /// theme (a code inverted by a dark theme does not scan on most phones).
  public func terminalLines(quietZone: Int = QRCode.quietZone) -> [String] {
    halfBlockLines(quietZone: quietZone).map { "\u{1B}[30;107m" + $0 + "\u{1B}[0m" }
  }

  /// An SVG image: one path of the dark modules over a white square, one unit per module,
  /// `label` as its accessible name (escaped by the caller for markup).
  public func svg(label: String) -> String {
    let side = size + 2 * Self.quietZone
    var path = ""
    for y in 0..<size {
      var x = 0
      while x < size {
        guard self[x, y] else {
          x += 1
          continue
        }
        var run = 1
        while self[x + run, y] { run += 1 }
        path += "M\(x + Self.quietZone) \(y + Self.quietZone)h\(run)v1h-\(run)z"
        x += run
      }
    }
    return """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" \
      role="img" aria-label="\(label)">\
      <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
      """
  }
}
