import CommandLineValues

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Who this attendee is on one server: a random UUID made on the first run and kept, so that
/// votes and "mine" survive reconnects and restarts, and the credential the server issued for
/// it (extension `identity`), which proves it. One per server URL, owner-only, in the state
/// directory beside the pending file: the id on the first line, the credential on the second.
/// The server never learns more than these (and a name, if the attendee gives one).
public struct AttendeeFile: Sendable {
  public let url: URL
  let ownsDirectory: Bool

  /// What the file keeps.
  public struct Identity: Sendable, Equatable {
    public var attendee: UUID
    public var credential: UUID?

    public init(attendee: UUID, credential: UUID?) {
      self.attendee = attendee
      self.credential = credential
    }
  }

  public init(directory: URL, serverURL: String, ownsDirectory: Bool = false) {
    url = directory.appendingPathComponent(
      PendingQuestionsFile.fileName("attendee", serverURL, "id"))
    self.ownsDirectory = ownsDirectory
  }

  /// The kept identity, or `make()`'s id (without a credential), kept from now on. Throws if
  /// it cannot be kept (the id is then this run's only). A file from before `identity` holds
  /// only the id: the server that knew it issues its credential on the next join.
  public func load(orMake make: () -> UUID) throws(PrivateFiles.Failure) -> Identity {
    if let kept = try read() { return kept }
    let identity = Identity(attendee: make(), credential: nil)
    // Two qna started together in one directory: the first file made is everyone's id.
    try PrivateFiles.prepareDirectory(url.deletingLastPathComponent(), tighten: ownsDirectory)
    if try PrivateFiles.create(url, with: Self.text(identity)) { return identity }
    if let kept = try read() { return kept }
    // Unreadable: replaced, as before.
    try keep(identity)
    return identity
  }

  private func read() throws(PrivateFiles.Failure) -> Identity? {
    guard let data = try PrivateFiles.read(url) else { return nil }
    let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map {
      $0.trimmingSpaces()
    }
    guard let first = lines.first, let attendee = UUID(uuidString: first) else { return nil }
    return Identity(
      attendee: attendee, credential: lines.dropFirst().first.flatMap(UUID.init(uuidString:)))
  }

  private static func text(_ identity: Identity) -> Data {
    let lines = [identity.attendee.uuidString] + (identity.credential.map { [$0.uuidString] } ?? [])
    return Data((lines.joined(separator: "\n") + "\n").utf8)
  }

  /// Replaces what is kept (atomically: a new file renamed over the old).
  public func keep(_ identity: Identity) throws(PrivateFiles.Failure) {
    try PrivateFiles.prepareDirectory(url.deletingLastPathComponent(), tighten: ownsDirectory)
    try PrivateFiles.replace(url, with: Self.text(identity))
  }
}
