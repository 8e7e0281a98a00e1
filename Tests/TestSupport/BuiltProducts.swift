import Foundation

/// Where the package's programs were built: beside the test bundle that runs (SwiftPM puts
/// both in its bin path, debug or release, whatever `--scratch-path`), or `QNA_BIN_DIR`.
public enum BuiltProducts {
  public static var directory: URL {
    if let override = ProcessInfo.processInfo.environment["QNA_BIN_DIR"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    // The test runner may be the bundle itself or a helper beside it.
    return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
  }

  /// The path of the built executable `name` (`qna`, `qna-server`, `wsc`).
  public static func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }
}
