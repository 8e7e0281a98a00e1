import Foundation
import Synchronization

/// The state directories tests made (`HeadlessProcess.freshDirectory()`), removed as the test
/// process exits rather than left in the temporary directory after every run.
enum FreshDirectories {
  private static let made = Mutex<[URL]>([])
  /// Registered once, with the first directory.
  private static let removedAtExit: Void = { atexit { FreshDirectories.removeAll() } }()

  static func add(_ directory: URL) {
    _ = removedAtExit
    made.withLock { $0.append(directory) }
  }

  private static func removeAll() {
    for directory in made.withLock({ $0 }) {
      try? FileManager.default.removeItem(at: directory)
    }
  }
}
