#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Dates on the wire: a number of seconds since 2001-01-01 (Foundation's default), or an
/// ISO-8601 string from tolerant back ends, with or without fractional seconds.
package enum WireDate {
  static func decode(from decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    if let seconds = try? container.decode(Double.self) {
      guard seconds.isFinite else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "date is not a finite number")
      }
      // A hostile ±1e300 becomes the first or last second a calendar shows: nothing
      // downstream meets a date it cannot format.
      return Date(timeIntervalSinceReferenceDate: min(max(seconds, earliest), latest))
    }
    let text = try container.decode(String.self)
    if let date = parseISO8601(text) { return date }
    throw DecodingError.dataCorruptedError(
      in: container, debugDescription: "date \"\(text)\" is neither a number nor ISO-8601")
  }

  /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 2001.
  static let earliest: Double = -63_114_076_800
  static let latest: Double = 252_423_993_599

  package static func parseISO8601(_ text: String) -> Date? {
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    if let date = try? fractional.parse(text) { return date }
    return try? Date.ISO8601FormatStyle().parse(text)
  }
}
