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
public typealias KeptVotesFile = KeptEntriesFile<KeptVote>

/// Poll answers typed and not yet answered (extension `polls`), kept as votes are.
public typealias KeptPollAnswersFile = KeptEntriesFile<KeptPollAnswer>

/// What a run keeps beside its pending questions until the server answers it: votes, poll
/// answers.
public struct KeptEntriesFile<Entry: Codable & Sendable>: Sendable {
  public let url: URL
  let ownsDirectory: Bool

  /// The file beside `pending`, named as it is with `prefix` for `pending` (`votes-…` for
  /// `pending-…`).
  public init(beside pending: PendingQuestionsFile, prefix: String) {
    let name = pending.url.lastPathComponent
    url = pending.url.deletingLastPathComponent().appendingPathComponent(
      prefix + name.dropFirst(name.hasPrefix("pending") ? "pending".count : 0))
    ownsDirectory = pending.ownsDirectory
  }

  public func load() throws(PendingQuestionsFile.FileError) -> [Entry] {
    do {
      guard let data = try PrivateFiles.read(url) else { return [] }
      return try JSONDecoder().decode([Entry].self, from: data)
    } catch {
      throw .unreadable("\(error)")
    }
  }

  /// Replaces the list; an empty list removes the file.
  public func save(_ entries: [Entry]) throws(PendingQuestionsFile.FileError) {
    do {
      try PrivateFiles.save(entries, to: url, tighten: ownsDirectory)
    } catch {
      throw .unwritable("\(error)")
    }
  }
}

extension KeptEntriesFile where Entry == KeptVote {
  /// The votes' file beside `pending` (`votes-…`).
  public init(beside pending: PendingQuestionsFile) { self.init(beside: pending, prefix: "votes") }
}

extension KeptEntriesFile where Entry == KeptPollAnswer {
  /// The poll answers' file beside `pending` (`answers-…`).
  public init(beside pending: PendingQuestionsFile) {
    self.init(beside: pending, prefix: "answers")
  }
}
