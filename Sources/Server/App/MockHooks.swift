import Foundation
import QnARoom

/// `--mock`'s bends of the real path, as the room's hooks: refusals by pattern, slow sends,
/// and answers on a timer. Without `--mock`, none.
enum MockHooks {
  /// Throws when the refusal pattern is not a regular expression.
  static func make(_ mock: MockConfiguration?, environment: ServerEnvironment) throws
    -> RoomHooks
  {
    guard let mock else { return .none }
    var hooks = RoomHooks()
    if let pattern = mock.reject {
      _ = try Regex(pattern)
      // Compiled per question: `Regex` is not `Sendable`.
      hooks.refusal = { content in
        guard let regex = try? Regex(pattern), (try? regex.firstMatch(in: content)) != nil
        else { return nil }
        return RoomReplies.failedSave
      }
    }
    hooks.sendDelay = mock.latency
    if let range = mock.autoAnswerAfter {
      hooks.questionStored = { id, room in
        let delay =
          range.lowerBound + (range.upperBound - range.lowerBound) * environment.random()
        Task {
          try? await Task.sleep(for: delay)
          _ = try? await room.answer(id)
        }
      }
    }
    return hooks
  }
}
