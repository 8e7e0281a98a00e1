import ArgumentParser
import CommandLineValues
import Foundation

/// The values of `qna-server`'s options that need more than a type: origins, ranges, and
/// the one way a usage error ends the command.
extension QnAServerCommand {
  /// `scheme://host[:port]` with nothing after it, as browsers send `Origin`.
  static func origin(_ text: String) throws -> String {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
      let rest = lowered.split(separator: "://", maxSplits: 1).last, !rest.isEmpty,
      !rest.contains("/"), !rest.contains("@")
    else {
      throw ValidationError("--allowed-origin '\(text)' is not scheme://host[:port]")
    }
    return lowered
  }

  /// `DURATION` or `MIN-MAX`.
  static func parseRange(_ text: String) throws -> ClosedRange<Duration> {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
    guard parts.count <= 2 else { throw ValidationError("'\(text)' is not DURATION or MIN-MAX") }
    let low = try DurationValue.parse(parts[0])
    let high = try parts.count == 2 ? DurationValue.parse(parts[1]) : low
    guard low <= high else { throw ValidationError("'\(text)': MIN is above MAX") }
    return low...high
  }

  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("qna-server: \(message)\n".utf8))
    Foundation.exit(64)
  }
}
