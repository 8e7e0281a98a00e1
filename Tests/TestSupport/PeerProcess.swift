import Foundation

/// A server from Tests/Interop that tests start on a free loopback port (it prints
/// "listening on PORT") and stop by PID when the object goes away.
public final class PeerProcess: Sendable {
  public let port: Int
  private let child: ChildProcess

  /// The repository's root (resolved: Benchmarks/ reaches this file through a symlink).
  public static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
  }

  /// The virtualenv Python `make test` installs `websockets` into.
  public static var python: String {
    if let override = ProcessInfo.processInfo.environment["QNA_PYTHON"] { return override }
    return packageRoot.appendingPathComponent(".venv/bin/python3").path
  }

  /// Starts `Tests/Interop/<script>` and waits for its "listening on PORT" line.
  public init(script: String, arguments: [String] = []) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.python) else {
      throw PeerError.missingPython(Self.python)
    }
    let scriptPath = Self.packageRoot.appendingPathComponent("Tests/Interop/\(script)").path
    child = try ChildProcess(Self.python, [scriptPath, "--port", "0"] + arguments)
    let text = child.readStdoutLine()
    guard text.hasPrefix("listening on "),
      let port = Int(text.dropFirst(13).trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw PeerError.noPort(script) }
    child.discardOutput()
    self.port = port
  }

  public func stop() { child.stop() }
}

public enum PeerError: Error, CustomStringConvertible {
  case missingPython(String)
  case noPort(String)

  public var description: String {
    switch self {
    case .missingPython(let path):
      "no Python with websockets at \(path): run `make test`, which installs it"
    case .noPort(let script): "\(script) did not report its port"
    }
  }
}
