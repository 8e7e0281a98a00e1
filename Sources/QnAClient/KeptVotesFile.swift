import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Votes typed and not yet answered, kept per server URL beside the pending questions (and
/// under their lock), so that a vote cast offline survives quitting: sent after the next
/// join, removed once the server answers it. Written atomically, owner-only.
public struct KeptVotesFile: Sendable {
  public let url: URL
  let ownsDirectory: Bool

  /// The file beside `pending`, named as it is (`votes-…` for `pending-…`).
  public init(beside pending: PendingQuestionsFile) {
    let name = pending.url.lastPathComponent
    url = pending.url.deletingLastPathComponent().appendingPathComponent(
      "votes" + name.dropFirst(name.hasPrefix("pending") ? "pending".count : 0))
    ownsDirectory = pending.ownsDirectory
  }

  public func load() throws(PendingQuestionsFile.FileError) -> [KeptVote] {
    do {
      guard let data = try PrivateFiles.read(url) else { return [] }
      return try JSONDecoder().decode([KeptVote].self, from: data)
    } catch {
      throw .unreadable("\(error)")
    }
  }

  /// Replaces the list; an empty list removes the file.
  public func save(_ votes: [KeptVote]) throws(PendingQuestionsFile.FileError) {
    do {
      try PrivateFiles.save(votes, to: url, tighten: ownsDirectory)
    } catch {
      throw .unwritable("\(error)")
    }
  }
}
