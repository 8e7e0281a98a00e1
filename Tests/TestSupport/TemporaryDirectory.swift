import Foundation

/// A fresh directory under the system's temporary one, removed when this is released.
public final class TemporaryDirectory: Sendable {
  public let url: URL

  public init(prefix: String = "qna-test") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The path of `name` inside it.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit { try? FileManager.default.removeItem(at: url) }
}
