/// Durations as the screen shows them, in whole seconds.
enum ShownSeconds {
  /// A countdown: 2.5 s left shows as 3 until it is 2.
  static func roundedUp(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds + (attoseconds > 0 ? 1 : 0)
  }

  /// Time waited: 4.3 s shows as 4.
  static func whole(_ duration: Duration) -> Int64 { duration.components.seconds }
}
