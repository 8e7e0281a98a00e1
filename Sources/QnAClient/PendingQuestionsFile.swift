import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Questions typed but not yet confirmed, kept on disk per server URL so that they survive
/// quitting the client: sent on the next start, removed once confirmed. Refused ones stay,
/// marked with their reason, until the user retries or discards them. Written atomically
/// (a new file renamed over the old), so a crash leaves the old list or the new one.
public struct PendingQuestionsFile: Sendable {
  public struct Entry: Sendable, Hashable, Codable {
    public var token: UUID
    public var content: String
    /// Why the server refused it for good; absent for a question still to be sent.
    public var failure: String?

    public init(token: UUID, content: String, failure: String? = nil) {
      self.token = token
      self.content = content
      self.failure = failure
    }
  }

  public enum FileError: Error, CustomStringConvertible {
    case unreadable(String)
    case unwritable(String)

    public var description: String {
      switch self {
      case .unreadable(let detail): "cannot read the pending questions: \(detail)"
      case .unwritable(let detail): "cannot save the pending questions: \(detail)"
      }
    }
  }

  public let url: URL
  /// Whether the directory is this program's own (the default), to be kept owner-only.
  let ownsDirectory: Bool

  /// The file for `serverURL` in `directory`: a readable name plus a hash, so that two URLs
  /// never share a file. ASCII only and cut short, so the name stays far under the 255 bytes
  /// a file name may have, whatever the URL.
  public init(directory: URL, serverURL: String, ownsDirectory: Bool = false) {
    url = directory.appendingPathComponent(Self.fileName("pending", serverURL, "json"))
    self.ownsDirectory = ownsDirectory
  }

  /// `PREFIX-READABLE-HASH.EXTENSION` for a server URL: readable, ASCII, short whatever the
  /// URL, and distinct for two URLs.
  static func fileName(_ prefix: String, _ serverURL: String, _ fileExtension: String) -> String {
    let readable = String(
      serverURL.unicodeScalars.prefix(80).map {
        switch $0 {
        case "0"..."9", "A"..."Z", "a"..."z": Character($0)
        default: "_"
        }
      })
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
    for byte in serverURL.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return "\(prefix)-\(readable)-\(String(hash, radix: 16)).\(fileExtension)"
  }

  /// `$XDG_STATE_HOME/qna`, else `~/.local/state/qna`.
  public static func defaultDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
      return URL(fileURLWithPath: state).appendingPathComponent("qna")
    }
    let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
    return URL(fileURLWithPath: home).appendingPathComponent(".local/state/qna")
  }

  public func load() throws(FileError) -> [Entry] {
    do {
      guard let data = try PrivateFiles.read(url) else { return [] }
      return try JSONDecoder().decode([Entry].self, from: data)
    } catch {
      throw .unreadable("\(error)")
    }
  }

  /// Replaces the list; an empty list removes the file.
  public func save(_ entries: [Entry]) throws(FileError) {
    do {
      try PrivateFiles.save(entries, to: url, tighten: ownsDirectory)
    } catch {
      throw .unwritable("\(error)")
    }
  }

  /// Takes the file for this process: two clients on the same server must not send (and
  /// overwrite) each other's questions. `nil` if another process holds it; the lock lasts
  /// as long as the returned object.
  /// Throws when the file cannot be used at all (its directory, a planted symlink).
  public func lock() throws(FileError) -> FileLock? {
    do {
      try PrivateFiles.prepareDirectory(url.deletingLastPathComponent(), tighten: ownsDirectory)
    } catch {
      throw .unwritable("\(error)")
    }
    let path = url.path + ".lock"
    let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard descriptor >= 0 else {
      throw .unwritable("\(path): \(String(cString: strerror(errno)))")
    }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      close(descriptor)
      return nil
    }
    return FileLock(descriptor: descriptor)
  }

  /// Moves an unreadable file (or a symlink planted there) aside rather than overwrite what
  /// it may still hold; a symlink's target is never touched.
  /// Returns false if it could not be moved.
  @discardableResult
  public func quarantine() -> Bool {
    let aside = url.appendingPathExtension("unreadable")
    unlink(aside.path)
    guard rename(url.path, aside.path) == 0 else { return false }
    PrivateFiles.syncDirectory(url.deletingLastPathComponent())
    return true
  }
}

/// An exclusive `flock`, released when this goes away (or the process ends).
public final class FileLock: Sendable {
  private let descriptor: Int32

  init(descriptor: Int32) { self.descriptor = descriptor }

  deinit { close(descriptor) }
}
