#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#endif

/// Files only their owner may read (0600), in a directory only its owner may enter (0700),
/// never followed through a symlink someone planted at their path, and synced with their
/// directory so that a crash leaves the old content or the new one.
public enum PrivateFiles {
  public struct Failure: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }

    init(_ path: String, errno code: Int32 = errno) {
      self.path = path
      reason = String(cString: strerror(code))
    }

    init(_ path: String, reason: String) {
      self.path = path
      self.reason = reason
    }
  }

  /// Creates `directory` (and its parents) owner-only. An existing one is tightened to 0700
  /// only when `tighten` says it is ours alone (the default state directory), never a
  /// directory the user named, which may be shared.
  public static func prepareDirectory(_ directory: URL, tighten: Bool) throws(Failure) {
    #if canImport(FoundationEssentials)
      var isDirectory = false
    #else
      var isDirectory: ObjCBool = false
    #endif
    if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      guard isDirectory == true else { throw Failure(directory.path, reason: "not a directory") }
      if tighten, chmod(directory.path, 0o700) != 0 { throw Failure(directory.path) }
      return
    }
    do {
      try FileManager.default.createDirectory(
        at: directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    } catch {
      throw Failure(directory.path, reason: "cannot create the directory: \(error)")
    }
    syncDirectory(directory.deletingLastPathComponent())
  }

  /// The file's bytes, `nil` if there is none; a symlink at the path is refused.
  public static func read(_ url: URL) throws(Failure) -> Data? {
    let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw errno == ELOOP
        ? Failure(url.path, reason: "a symbolic link, not followed") : Failure(url.path)
    }
    defer { close(fd) }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(url.path)
      }
      if count == 0 { return data }
      data.append(contentsOf: chunk[..<count])
    }
  }

  /// Replaces the file atomically: a new owner-only file, synced, renamed over the old (a
  /// symlink there is replaced, its target untouched), then the directory synced.
  public static func replace(_ url: URL, with data: Data) throws(Failure) {
    let temporary = try writeTemporary(beside: url, data)
    guard rename(temporary, url.path) == 0 else {
      let code = errno
      unlink(temporary)
      throw Failure(url.path, errno: code)
    }
    syncDirectory(url.deletingLastPathComponent())
  }

  /// Writes `data` as `url` unless a file is there already (then `false`, and it is left as
  /// it is): whole or not at all, and never over another process's file written meanwhile
  /// (a hard link fails where a rename would replace).
  public static func create(_ url: URL, with data: Data) throws(Failure) -> Bool {
    let temporary = try writeTemporary(beside: url, data)
    defer { unlink(temporary) }
    guard link(temporary, url.path) == 0 else {
      if errno == EEXIST { return false }
      throw Failure(url.path, errno: errno)
    }
    syncDirectory(url.deletingLastPathComponent())
    return true
  }

  /// `data` in a new owner-only file beside `url`, synced; its path.
  private static func writeTemporary(beside url: URL, _ data: Data) throws(Failure) -> String {
    let directory = url.deletingLastPathComponent()
    // Unique per call, not per process: two threads of one process may write at once.
    let temporary = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString.prefix(8)).tmp"
    ).path
    unlink(temporary)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw Failure(temporary) }
    var written = 0
    let ok = data.withUnsafeBytes { bytes -> Bool in
      while written < bytes.count {
        let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        written += count
      }
      return fsync(fd) == 0
    }
    let code = errno
    close(fd)
    guard ok else {
      unlink(temporary)
      throw Failure(temporary, errno: code)
    }
    return temporary
  }

  /// Removes the file (a symlink itself, not its target), then syncs the directory.
  public static func remove(_ url: URL) throws(Failure) {
    guard unlink(url.path) == 0 || errno == ENOENT else { throw Failure(url.path) }
    syncDirectory(url.deletingLastPathComponent())
  }

  /// Opens for appending, creating it owner-only; a symlink at the path is refused.
  /// Replaces the file with `list` as JSON, owner-only; an empty list removes the file.
  static func save(_ list: [some Encodable], to url: URL, tighten: Bool) throws {
    if list.isEmpty {
      try remove(url)
      return
    }
    try prepareDirectory(url.deletingLastPathComponent(), tighten: tighten)
    try replace(url, with: JSONEncoder().encode(list))
  }

  public static func openForAppend(_ url: URL) throws(Failure) -> Int32 {
    let existed = FileManager.default.fileExists(atPath: url.path)
    let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw errno == ELOOP
        ? Failure(url.path, reason: "a symbolic link, not followed") : Failure(url.path)
    }
    if !existed { syncDirectory(url.deletingLastPathComponent()) }
    return fd
  }

  /// Makes a rename or a creation in `directory` durable.
  public static func syncDirectory(_ directory: URL) {
    let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    fsync(fd)
    close(fd)
  }
}
