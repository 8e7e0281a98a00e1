/// A symbol version's geometry and its error-correction layout at level M (ISO/IEC 18004
/// tables 1 and 9), the only level this encoder makes: about 15 % of the symbol can be lost
/// (a smudge, a projector's glare) and a 200-character address still fits in version 10.
struct QRVersion: Sendable, Equatable {
  let number: Int

  static let all = (1...40).map(QRVersion.init(number:))

  /// Modules per side.
  var size: Int { number * 4 + 17 }

  /// Check bytes per block at level M, by version.
  private static let checkBytesPerBlock = [
    0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  ]
  /// Blocks at level M, by version.
  private static let blockCounts = [
    0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21,
    23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
  ]

  var checkBytes: Int { Self.checkBytesPerBlock[number] }
  var blocks: Int { Self.blockCounts[number] }

  /// Modules left for codewords once every function pattern is drawn.
  var dataModules: Int {
    var modules = (16 * number + 128) * number + 64
    if number >= 2 {
      let alignments = number / 7 + 2
      modules -= (25 * alignments - 10) * alignments - 55
      if number >= 7 { modules -= 36 }
    }
    return modules
  }

  /// All codewords, data and check.
  var codewords: Int { dataModules / 8 }
  /// Data codewords at level M.
  var dataCodewords: Int { codewords - checkBytes * blocks }

  /// Bits of a byte-mode segment's length field.
  var countBits: Int { number < 10 ? 8 : 16 }

  /// Centres of the alignment patterns, the same list for rows and columns.
  var alignmentCentres: [Int] {
    guard number > 1 else { return [] }
    let count = number / 7 + 2
    let step = number == 32 ? 26 : (number * 4 + count * 2 + 1) / (count * 2 - 2) * 2
    var centres = [6]
    for index in 0..<(count - 1) { centres.insert(size - 7 - index * step, at: 1) }
    return centres
  }
}
