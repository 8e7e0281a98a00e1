import Foundation
import Logging

/// One JSON object a line, for log collectors (`--log-format json`): `time` (ISO 8601, UTC,
/// milliseconds), `level`, `label`, `message`, `source`, `error` when there is one, and the metadata as an object of
/// strings. JSON escapes every control character, so a message cannot break its line.
public struct JSONLogHandler: LogHandler {
  public var logLevel: Logger.Level = .info
  public var metadata: Logger.Metadata = [:]
  private let label: String
  private let write: @Sendable (String) -> Void
  private let now: @Sendable () -> Date

  /// `write` gets each line, newline included; `now` stamps it.
  public init(
    label: String, now: @escaping @Sendable () -> Date = Date.init,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.label = label
    self.now = now
    self.write = write
  }

  /// Lines to standard error, each in one write.
  public static func standardError(label: String) -> JSONLogHandler {
    JSONLogHandler(label: label) { line in FileHandle.standardError.write(Data(line.utf8)) }
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  struct Line: Encodable {
    let time: String
    let level: String
    let label: String
    let message: String
    let source: String
    let error: String?
    let metadata: [String: String]?
  }

  public func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
    let line = Line(
      time: now().formatted(Self.timeFormat), level: event.level.rawValue, label: label,
      message: event.message.description, source: event.source,
      error: event.error.map { "\($0)" },
      metadata: merged.isEmpty ? nil : merged.mapValues(\.description))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(line) else { return }
    write(String(decoding: data, as: UTF8.self) + "\n")
  }

  static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
