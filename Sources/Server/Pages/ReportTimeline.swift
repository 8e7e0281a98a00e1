import Foundation
import QnAStore

/// The report's time axis: the session's span in bins of a round number of minutes (at most
/// `maxBins` of them, however long the session), each starting on a multiple of its length
/// on the report's clock (an hour's bins on the hour in a zone half an hour from UTC too).
package struct ReportTimeline {
  static let maxBins = 48
  /// Bin lengths, in minutes, the shortest that fits chosen; past a day, whole days.
  static let lengths = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440]

  /// Minutes a bin counts.
  package let minutes: Int
  /// When each bin starts.
  package let starts: [Date]

  package init(span: ClosedRange<Date>, timeZone: TimeZone = TimeZone(identifier: "UTC")!) {
    // Bins start on multiples of their length on the zone's clock, not on UTC's.
    let offset = Double(timeZone.secondsFromGMT(for: span.lowerBound))
    let first = span.lowerBound.timeIntervalSince1970
    let spanMinutes = Int(((span.upperBound.timeIntervalSince1970 - first) / 60).rounded(.up))
    let needed = max(1, Int((Double(max(1, spanMinutes)) / Double(Self.maxBins)).rounded(.up)))
    minutes = Self.lengths.first { $0 >= needed } ?? ((needed + 1439) / 1440) * 1440
    let length = Double(minutes * 60)
    let start = ((first + offset) / length).rounded(.down) * length - offset
    let count = Int(((span.upperBound.timeIntervalSince1970 - start) / length).rounded(.down)) + 1
    starts = (0..<max(1, count)).map { Date(timeIntervalSince1970: start + Double($0) * length) }
  }

  /// Each bin's label: its time of day, with its date when the span crosses a day (or the
  /// date alone for bins of a day or more).
  func labels(_ clock: ReportClock) -> [String] {
    guard let first = starts.first, let last = starts.last else { return [] }
    if minutes >= 1440 { return starts.map(clock.day) }
    guard clock.day(first) != clock.day(last) else { return starts.map(clock.time) }
    return starts.map { clock.day($0).dropFirst(5) + " " + clock.time($0) }
  }

  /// The bin `date` falls in (the first or the last for one outside the span).
  func bin(of date: Date) -> Int {
    let offset = date.timeIntervalSince(starts[0]) / Double(minutes * 60)
    return min(starts.count - 1, max(0, Int(offset.rounded(.down))))
  }

  /// How many of `times` fall in each bin.
  func count(_ times: [Date]) -> [Int] {
    var counts = [Int](repeating: 0, count: starts.count)
    for time in times { counts[bin(of: time)] += 1 }
    return counts
  }

  /// The most attendees present in each bin: the count a bin starts with is the last one
  /// before it (a minute without a row kept it), raised by each minute's peak in it.
  package func present(_ rows: [AttendanceMinute]) -> [Int] {
    var present = [Int](repeating: 0, count: starts.count)
    var carried = 0
    var next = 0
    let sorted = rows.sorted { $0.start < $1.start }
    for bin in starts.indices {
      let end = starts[bin].addingTimeInterval(Double(minutes * 60))
      var most = carried
      while next < sorted.count, sorted[next].start < end {
        most = max(most, sorted[next].peak)
        carried = sorted[next].last
        next += 1
      }
      present[bin] = most
    }
    return present
  }

  /// From the first thing that happened in the session to the last; `nil` when nothing did.
  static func span(of data: SessionReportData) -> ClosedRange<Date>? {
    let times =
      data.questions.map(\.question.createdAt) + data.questions.compactMap(\.question.answeredAt)
      + data.voteTimes + data.pollAnswerTimes
    guard let first = times.min(), let last = times.max() else { return nil }
    return first...last
  }
}
