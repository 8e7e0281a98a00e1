import CommandLineValues
import Logging

/// Wraps a log handler so that every message and metadata value arrives escaped: an
/// attendee's `type`, a request path or a close reason holding a newline or an escape
/// sequence cannot forge a log line or act on the terminal of whoever reads the log.
public struct EscapingLogHandler: LogHandler {
  private var base: any LogHandler

  public init(_ base: any LogHandler) {
    self.base = base
  }

  public var logLevel: Logger.Level {
    get { base.logLevel }
    set { base.logLevel = newValue }
  }

  public var metadata: Logger.Metadata {
    get { base.metadata }
    set { base.metadata = newValue }
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { base[metadataKey: key] }
    set { base[metadataKey: key] = newValue }
  }

  public func log(event: LogEvent) {
    var event = event
    event.message = "\(PrintableText.escaped(event.message.description))"
    event.metadata = event.metadata.map(Self.escaped)
    base.log(event: event)
  }

  static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata {
    metadata.mapValues { .string(PrintableText.escaped($0.description)) }
  }
}
