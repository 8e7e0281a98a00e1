/// Parses the durations every command line of the project accepts: plain seconds (`1`, `0.5`)
/// or a number with a unit (`500ms`, `2s`, `1m`, `1h`).
public enum DurationValue {
  public static func parse(_ text: String) throws(ValueError) -> Duration {
    let trimmed = text.trimmingASCIISpaces()
    let units: [(suffix: String, nanoseconds: Double)] = [
      ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9),
    ]
    var number = Substring(trimmed)
    var scale = 1e9
    for unit in units where trimmed.hasSuffix(unit.suffix) {
      number = trimmed.dropLast(unit.suffix.count)
      scale = unit.nanoseconds
      break
    }
    guard let value = Double(number), value.isFinite, value >= 0, !number.hasPrefix("+") else {
      throw .invalidDuration(text)
    }
    let nanoseconds = value * scale
    guard nanoseconds < 1e18 else { throw .invalidDuration(text) }
    return .nanoseconds(Int64(nanoseconds.rounded()))
  }

  /// A duration that must be at least `minimum` (a timeout of 0 would fail every connection
  /// at once, a backoff of 0 would reconnect in a tight loop); `option` names it in the error.
  public static func parse(_ text: String, atLeast minimum: Duration, option: String)
    throws(ValueError) -> Duration
  {
    let value = try parse(text)
    guard value >= minimum else { throw .tooShort(option: option, minimum: format(minimum)) }
    return value
  }

  /// `1.5s`, `250ms`: the shortest exact form, for messages and logs.
  public static func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
    if milliseconds < 1000 { return "\(milliseconds)ms" }
    return "\(Double(milliseconds) / 1000)s"
  }
}

/// Parses sizes in plain bytes (`16777216`).
public enum SizeValue {
  public static func parse(_ text: String) throws(ValueError) -> Int {
    let trimmed = text.trimmingASCIISpaces()
    guard let value = Int(trimmed), value > 0, trimmed.first != "+" else {
      throw .invalidSize(text)
    }
    return value
  }
}

public enum ValueError: Error, Sendable, Equatable, CustomStringConvertible {
  case invalidDuration(String)
  case invalidSize(String)
  case tooShort(option: String, minimum: String)

  public var description: String {
    switch self {
    case .invalidDuration(let text):
      "invalid duration '\(text)': use seconds (1, 0.5) or a unit (500ms, 2s, 1m)"
    case .invalidSize(let text): "invalid size '\(text)': use a positive number of bytes"
    case .tooShort(let option, let minimum): "\(option) must be at least \(minimum)"
    }
  }
}

extension String {
  fileprivate func trimmingASCIISpaces() -> String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}

/// Durations as people read them on a screen or in a message: one formatter for the project.
extension DurationValue {
  /// Whole seconds: a wait truncated (4.3 s waited is 4), a countdown rounded up (2.5 s left
  /// is 3 until it is 2).
  public static func wholeSeconds(_ duration: Duration, roundingUp: Bool = false) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds + (roundingUp && attoseconds > 0 ? 1 : 0)
  }

  /// A round trip: "0.4 ms" below 10 ms (loopback pings take a fraction of one), "23 ms"
  /// above.
  public static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
    if tenths < 100 { return "\(tenths / 10).\(tenths % 10) ms" }
    return "\(tenths / 10) ms"
  }
}
