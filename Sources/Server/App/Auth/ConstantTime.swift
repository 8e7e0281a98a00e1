/// Comparisons whose time does not depend on where the inputs differ.
enum ConstantTime {
  /// Compares without an early exit, so response time does not reveal a matching prefix.
  static func equal(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = UInt8(x.count == y.count ? 0 : 1)
    for index in 0..<max(x.count, y.count) {
      difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
    }
    return difference == 0
  }
}
