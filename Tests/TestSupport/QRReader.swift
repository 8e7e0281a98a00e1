import Foundation

/// Reads QR codes the way a phone would, with Debian's `zbarimg` (zbar-tools, installed by
/// `make test`): from a grid of dark cells, from half-block text as a terminal shows it, or
/// from an image file.
public enum QRReader {
  /// What zbarimg read from `file` (a PBM, PNG, …), each symbol's bytes; empty when it found
  /// none.
  public static func decode(file: String) throws -> [[UInt8]] {
    let run = try ProgramRun("/usr/bin/zbarimg", ["--quiet", "--raw", "-Sbinary", file])
    // Exit 4: no symbol found. `-Sbinary` writes each symbol's bytes, then a line break.
    guard run.status == 0 else { return [] }
    var symbols = Array(run.output.utf8).split(
      separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
    )
    .map(Array.init)
    while symbols.last == [] { symbols.removeLast() }
    return symbols
  }

  /// A grid of cells (`true`: dark), drawn `scale` pixels a cell as a PBM in `directory`,
  /// then read.
  public static func decode(cells: [[Bool]], scale: Int = 4, in directory: TemporaryDirectory)
    throws -> [[UInt8]]
  {
    let width = (cells.map(\.count).max() ?? 0) * scale
    var text = "P1\n\(width) \(cells.count * scale)\n"
    for row in cells {
      let line = (0..<width).map { x in
        x / scale < row.count && row[x / scale] ? "1" : "0"
      }.joined(separator: " ")
      for _ in 0..<scale { text += line + "\n" }
    }
    let file = directory.path("code-\(UUID().uuidString).pbm")
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    return try decode(file: file)
  }

  /// Lines of half blocks (`▀ ▄ █`, space) as a terminal shows them, two cells a character,
  /// dark as the glyph's ink; any other character is light.
  public static func cells(halfBlocks lines: [String]) -> [[Bool]] {
    lines.flatMap { line -> [[Bool]] in
      let characters = Array(line)
      return [
        characters.map { $0 == "▀" || $0 == "█" },
        characters.map { $0 == "▄" || $0 == "█" },
      ]
    }
  }
}
