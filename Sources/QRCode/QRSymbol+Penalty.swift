/// The mask evaluation of §7.8.3: the symbol with the lowest penalty is the easiest to read.
extension QRSymbol {
  func penalty() -> Int {
    var total = 0
    for line in 0..<size {
      total += penalty(of: (0..<size).map { self[$0, line] })
      total += penalty(of: (0..<size).map { self[line, $0] })
    }
    // Blocks of 2×2 modules of one colour.
    for y in 0..<(size - 1) {
      for x in 0..<(size - 1) {
        let colour = self[x, y]
        if self[x + 1, y] == colour, self[x, y + 1] == colour, self[x + 1, y + 1] == colour {
          total += 3
        }
      }
    }
    // Dark modules far from half of them: 10 per 5 % of distance.
    let darkCount = dark.lazy.filter { $0 }.count
    let all = size * size
    total += ((abs(darkCount * 20 - all * 10) + all - 1) / all - 1) * 10
    return total
  }

  /// One row or column: runs of five or more of a colour, and finder-like patterns
  /// (1:1:3:1:1 with four light modules on one side).
  private func penalty(of line: [Bool]) -> Int {
    var total = 0
    var run = 1
    for index in 1...line.count {
      if index < line.count, line[index] == line[index - 1] {
        run += 1
        continue
      }
      if run >= 5 { total += 3 + (run - 5) }
      run = 1
    }
    let pattern: [Bool] = [true, false, true, true, true, false, true]
    let light = [Bool](repeating: false, count: 4)
    let padded = light + line + light
    for start in 0...(padded.count - 11) {
      let window = padded[start..<(start + 11)]
      if Array(window) == light + pattern || Array(window) == pattern + light { total += 40 }
    }
    return total
  }
}
