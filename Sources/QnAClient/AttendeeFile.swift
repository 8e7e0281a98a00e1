import Foundation

/// Who this attendee is on one server: a random UUID made on the first run and kept, so that
/// votes and "mine" survive reconnects and restarts. One per server URL, owner-only, in the
/// state directory beside the pending file. The server never learns more than this id (and
/// a name, if the attendee gives one).
public struct AttendeeFile: Sendable {
  public let url: URL
  let ownsDirectory: Bool

  public init(directory: URL, serverURL: String, ownsDirectory: Bool = false) {
    url = directory.appendingPathComponent(
      PendingQuestionsFile.fileName("attendee", serverURL, "id"))
    self.ownsDirectory = ownsDirectory
  }

  /// The kept id, or `make()`'s, kept from now on. Throws if it cannot be kept (the id is
  /// then this run's only).
  public func load(orMake make: () -> UUID) throws(PrivateFiles.Failure) -> UUID {
    if let data = try PrivateFiles.read(url),
      let id = UUID(
        uuidString: String(decoding: data, as: UTF8.self).trimmingCharacters(
          in: .whitespacesAndNewlines))
    {
      return id
    }
    let id = make()
    try PrivateFiles.prepareDirectory(url.deletingLastPathComponent(), tighten: ownsDirectory)
    try PrivateFiles.replace(url, with: Data((id.uuidString + "\n").utf8))
    return id
  }
}
