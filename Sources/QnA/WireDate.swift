import Foundation

/// Dates on the wire: a number of seconds since 2001-01-01 (Foundation's default), or an
/// ISO-8601 string from tolerant back ends, with or without fractional seconds.
enum WireDate {
  static func decode(from decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    if let seconds = try? container.decode(Double.self) {
      guard seconds.isFinite else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "date is not a finite number")
      }
      return Date(timeIntervalSinceReferenceDate: seconds)
    }
    let text = try container.decode(String.self)
    if let date = parseISO8601(text) { return date }
    throw DecodingError.dataCorruptedError(
      in: container, debugDescription: "date \"\(text)\" is neither a number nor ISO-8601")
  }

  static func parseISO8601(_ text: String) -> Date? {
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    if let date = try? fractional.parse(text) { return date }
    return try? Date.ISO8601FormatStyle().parse(text)
  }
}
