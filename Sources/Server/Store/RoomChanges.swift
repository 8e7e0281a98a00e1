import Foundation
import QnA

/// What changed in the room over a range of its log, as the store read it once: the delta in
/// today's format (every changed question whole), and which of its questions changed only in
/// their votes, so that the compact format (extension `counts`) sends those as numbers.
public struct RoomChanges: Sendable, Equatable {
  /// Its questions carry their numbers (`n`); `full` and `compact` decide who sees them.
  public var delta: RoomDelta
  public var countsOnly: Set<UUID>

  public init(delta: RoomDelta, countsOnly: Set<UUID> = []) {
    self.delta = delta
    self.countsOnly = countsOnly
  }

  /// Extension `polls`: the polls the log named that the audience sees (`found`), whole, but
  /// those whose only change was their results (`resultsOnly`), which go as results alone,
  /// by number; `deleted` (those the log named that are gone) as removed.
  package mutating func addPolls(
    _ found: [RoomPoll], named deleted: [String], resultsOnly: Set<String>
  ) {
    var whole: [RoomPoll] = []
    var results: [PollResults] = []
    for poll in found {
      if resultsOnly.contains(poll.id.text) {
        // Results the audience may not see move nothing it sees.
        guard var counts = poll.results else { continue }
        counts.n = poll.n
        results.append(counts)
      } else {
        whole.append(poll)
      }
    }
    delta.polls = whole.nilIfEmpty
    delta.pollResults = results.nilIfEmpty
    delta.removedPolls = deleted.compactMap(UUID.init(text:)).nilIfEmpty
  }

  /// Today's format, byte for byte: whole questions, no numbers.
  public var full: RoomDelta {
    var full = delta
    for index in full.questions.indices { full.questions[index].n = nil }
    return full
  }

  /// Extension `counts`: count-only changes as `[n, votes, …]`, the rest whole and numbered.
  public var compact: RoomDelta {
    var compact = delta
    var counts: [Int] = []
    compact.questions = delta.questions.filter { question in
      guard countsOnly.contains(question.id), let number = question.n else { return true }
      counts += [number, question.votes]
      return false
    }
    compact.counts = counts.nilIfEmpty
    return compact
  }
}
