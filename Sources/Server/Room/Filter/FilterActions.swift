import Foundation
import QnAStore

/// Changes to a session's word filter, from the API or a presenter's socket: stored once
/// per token, then in force here at once (and on the other instances by their notice).
package struct FilterActions: Sendable {
  package let room: SessionRoom

  package init(room: SessionRoom) { self.room = room }

  /// `entries` as list `name` from now on (none: the list goes).
  package func replace(_ name: String, entries: [String], token: UUID) async throws(StoreError)
    -> QuestionStore.RoomActionOutcome
  {
    try await change(name, FilterChange(replacing: true, adding: entries), token: token)
  }

  package func change(_ name: String, _ change: FilterChange, token: UUID)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    let outcome = try await room.store.moderation.changeFilterList(
      name, change, maxEntries: WordFilter.maxEntries - serverEntries, token: token,
      at: room.environment.now())
    if outcome.changed {
      room.wordFilters.invalidate()
      room.logger.info(
        "word list \(name): \(change.replacing ? "replaced by" : "added") \(change.adding.count), removed \(change.removing.count)"
      )
    }
    return outcome
  }

  package func setMode(_ mode: FilterMode, token: UUID) async throws(StoreError)
    -> QuestionStore.RoomActionOutcome
  {
    let outcome = try await room.store.moderation.setFilterMode(
      mode, token: token, at: room.environment.now())
    if outcome.changed {
      room.wordFilters.invalidate()
      room.logger.info("word filter: matches are \(mode == .review ? "reviewed" : "refused")")
    }
    return outcome
  }

  /// Entries the server's own lists (`--word-list`) take of every session's budget.
  var serverEntries: Int { room.settings.wordLists.values.map(\.count).reduce(0, +) }

  /// Why a list's name or entry cannot be used, or nil.
  package static func problem(name: String, entries: [String]) -> String? {
    guard ModerationStore.validListName(name) else {
      return "A list's name is 1–32 of a–z, 0–9, - and _."
    }
    for entry in entries {
      if let problem = WordFilter.problem(with: entry) { return problem }
    }
    return nil
  }
}
