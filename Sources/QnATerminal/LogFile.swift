import CommandLineValues
import QnA
import QnAClient
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The terminal UI's log: lines go to a file, never to the screen. While the screen is up,
/// stderr goes there too, so that nothing (a library's warning, a crash report) garbles it.
/// Owner-only, never through a planted symlink; every line escaped, so that text from the
/// network cannot act on the terminal of whoever reads the log.
public final class LogFile: Sendable {
  public let path: String
  private let fd: Int32
  private let lock = Mutex(())

  public struct OpenError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot open the log file \(path): \(reason)" }
  }

  /// `ownsDirectory`: the directory is this program's own (the default), kept owner-only.
  public init(path: String, ownsDirectory: Bool = false) throws(OpenError) {
    let url = URL(fileURLWithPath: path)
    do {
      try PrivateFiles.prepareDirectory(url.deletingLastPathComponent(), tighten: ownsDirectory)
      fd = try PrivateFiles.openForAppend(url)
    } catch {
      throw OpenError(path: path, reason: error.reason)
    }
    self.path = path
  }

  deinit { close(fd) }

  public func write(_ line: String) {
    let stamp = Date().formatted(.iso8601)
    var bytes = Array("\(stamp) \(PrintableText.escaped(line))\n".utf8)
    lock.withLock { _ in _ = Glibc.write(fd, &bytes, bytes.count) }
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
