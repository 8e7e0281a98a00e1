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
