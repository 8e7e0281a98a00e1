import Foundation
import Synchronization

/// The terminal UI's log: lines go to a file, never to the screen. While the screen is up,
/// stderr goes there too, so that nothing (a library's warning, a crash report) garbles it.
public final class LogFile: Sendable {
  public let path: String
  private let fd: Int32
  private let lock = Mutex(())

  public struct OpenError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot open the log file \(path): \(reason)" }
  }

  public init(path: String) throws(OpenError) {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
    self.path = path
    self.fd = fd
  }

  deinit { close(fd) }

  public func write(_ line: String) {
    let stamp = Date().formatted(.iso8601)
    var bytes = Array("\(stamp) \(line)\n".utf8)
    lock.withLock { _ in _ = Foundation.write(fd, &bytes, bytes.count) }
  }

  /// Sends stderr to the log until the returned restore is called.
  func captureStandardError() -> @Sendable () -> Void {
    let saved = dup(STDERR_FILENO)
    dup2(fd, STDERR_FILENO)
    return {
      dup2(saved, STDERR_FILENO)
      close(saved)
    }
  }
}
