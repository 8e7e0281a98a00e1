/// The module grid while it is drawn: function patterns first (marked, so that data and
/// masks pass them by), then the codewords, then a mask and the format bits.
struct QRSymbol {
  let version: QRVersion
  let size: Int
  private(set) var dark: [Bool]
  private var isFunction: [Bool]

  init(version: QRVersion) {
    self.version = version
    size = version.size
    dark = Array(repeating: false, count: size * size)
    isFunction = Array(repeating: false, count: size * size)
  }

  subscript(x: Int, y: Int) -> Bool { dark[y * size + x] }

  private mutating func setFunction(_ x: Int, _ y: Int, _ isDark: Bool) {
    dark[y * size + x] = isDark
    isFunction[y * size + x] = true
  }

  /// Timing lines, finders with their separators, alignment patterns, the version's bits and
  /// room for the format's (§6.3).
  mutating func drawFunctionPatterns() {
    for index in 0..<size {
      setFunction(6, index, index % 2 == 0)
      setFunction(index, 6, index % 2 == 0)
    }
    for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(x: x, y: y) }
    let centres = version.alignmentCentres
    let last = centres.count - 1
    for (row, y) in centres.enumerated() {
      for (column, x) in centres.enumerated() {
        // Not over the finders.
        if (row == 0 && column == 0) || (row == 0 && column == last) || (row == last && column == 0)
        {
          continue
        }
        for dy in -2...2 {
          for dx in -2...2 { setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
        }
      }
    }
    drawFormat(mask: 0)
    drawVersion()
  }

  /// A finder (7×7 rings) and its light separator, clipped to the symbol.
  private mutating func drawFinder(x: Int, y: Int) {
    for dy in -4...4 {
      for dx in -4...4 {
        let (column, row) = (x + dx, y + dy)
        guard (0..<size).contains(column), (0..<size).contains(row) else { continue }
        let ring = max(abs(dx), abs(dy))
        setFunction(column, row, ring != 2 && ring != 4)
      }
    }
  }

  /// Level M's two bits (00) and the mask, BCH(15,5)-protected, in both copies, and the
  /// dark module (§7.9).
  mutating func drawFormat(mask: Int) {
    let data = 0b00 << 3 | mask
    var remainder = data
    for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
    let bits = (data << 10 | remainder) ^ 0x5412
    func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
    for index in 0...5 { setFunction(8, index, bit(index)) }
    setFunction(8, 7, bit(6))
    setFunction(8, 8, bit(7))
    setFunction(7, 8, bit(8))
    for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
    for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
    for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
    setFunction(8, size - 8, true)
  }

  /// From version 7: the version number, BCH(18,6)-protected, beside two finders (§7.10).
  private mutating func drawVersion() {
    guard version.number >= 7 else { return }
    var remainder = version.number
    for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
    let bits = version.number << 12 | remainder
    for index in 0..<18 {
      let isDark = bits >> index & 1 == 1
      let (across, down) = (size - 11 + index % 3, index / 3)
      setFunction(across, down, isDark)
      setFunction(down, across, isDark)
    }
  }

  /// The codewords' bits in two-module columns from the right, up then down, skipping the
  /// vertical timing line and every function module (§7.7.3).
  mutating func drawCodewords(_ codewords: [UInt8]) {
    var bit = 0
    let total = codewords.count * 8
    var right = size - 1
    while right >= 1 {
      if right == 6 { right = 5 }
      let upward = (right + 1) & 2 == 0
      for step in 0..<size {
        let y = upward ? size - 1 - step : step
        for x in [right, right - 1] where !isFunction[y * size + x] && bit < total {
          dark[y * size + x] = codewords[bit >> 3] >> (7 - bit & 7) & 1 == 1
          bit += 1
        }
      }
      right -= 2
    }
  }

  /// Inverts the data modules where the mask's condition holds (§7.8.2).
  mutating func apply(mask: Int) {
    for y in 0..<size {
      for x in 0..<size where !isFunction[y * size + x] {
        let flips: Bool
        switch mask {
        case 0: flips = (x + y) % 2 == 0
        case 1: flips = y % 2 == 0
        case 2: flips = x % 3 == 0
        case 3: flips = (x + y) % 3 == 0
        case 4: flips = (x / 3 + y / 2) % 2 == 0
        case 5: flips = x * y % 2 + x * y % 3 == 0
        case 6: flips = (x * y % 2 + x * y % 3) % 2 == 0
        default: flips = ((x + y) % 2 + x * y % 3) % 2 == 0
        }
        if flips { dark[y * size + x].toggle() }
      }
    }
  }
}
