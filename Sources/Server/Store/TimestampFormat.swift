import Foundation

/// How the presenter's API and the export write a time: ISO 8601 in UTC, with milliseconds.
package enum TimestampFormat {
  package static let iso8601 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
