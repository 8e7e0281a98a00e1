import Foundation
import QnAStore
import Synchronization

/// One session's word filter on this instance: the server's lists (`--word-list`, made into
/// a matcher once for every session) and the session's own, read from the store once and
/// kept until they change (here, or on another instance: its notice says so). Questions
/// that arrive while the lists are read wait for that one read.
package final class WordFilters: Sendable {
  private let store: QuestionStore
  private let server: WordFilter
  private struct Loaded: Sendable {
    var filter: WordFilter
    var mode: FilterMode
    var silenced: Set<UUID>
  }

  /// The mark a silenced asker's question carries among the filter's matches.
  package static let silencedMark = "silenced asker"
  /// The session's filter as last read, the read under way, and how many times it was made
  /// stale (a read that a change overtook is not kept).
  private struct State: Sendable {
    var loaded: Loaded?
    var loading: Task<Loaded, any Error>?
    var generation = 0
  }
  private let state = Mutex(State())

  package init(store: QuestionStore, server: WordFilter) {
    self.store = store
    self.server = server
  }

  /// What a question's text (and its asker, when known) meets: the entries it matches, and
  /// `silencedMark` first when the presenters silenced the asker (none: it passes), and what
  /// a match does.
  package func screen(_ text: String, asker: UUID? = nil) async throws(StoreError) -> (
    matches: [String], mode: FilterMode
  ) {
    let loaded = try await current()
    var matches = asker.map { loaded.silenced.contains($0) } == true ? [Self.silencedMark] : []
    for entry in server.matches(text) where matches.count < WordFilter.maxMatchesTold {
      matches.append(entry)
    }
    for entry in loaded.filter.matches(text)
    where matches.count < WordFilter.maxMatchesTold && !matches.contains(entry) {
      matches.append(entry)
    }
    return (matches, loaded.mode)
  }

  /// The session's lists changed: the next question reads them again.
  package func invalidate() {
    state.withLock {
      $0.loaded = nil
      $0.loading = nil
      $0.generation += 1
    }
  }

  private func current() async throws(StoreError) -> Loaded {
    let step = state.withLock { state -> Result<Loaded, Pending> in
      if let loaded = state.loaded { return .success(loaded) }
      if let loading = state.loading {
        return .failure(Pending(task: loading, generation: state.generation))
      }
      let store = self.store
      let loading = Task { () async throws -> Loaded in
        let settings = try await store.moderation.filterSettings()
        return Loaded(
          filter: WordFilter(entries: settings.lists.values.joined()), mode: settings.mode,
          silenced: settings.silenced)
      }
      state.loading = loading
      return .failure(Pending(task: loading, generation: state.generation))
    }
    let pending: Pending
    switch step {
    case .success(let loaded): return loaded
    case .failure(let read): pending = read
    }
    do {
      let loaded = try await pending.task.value
      state.withLock {
        if $0.generation == pending.generation {
          $0.loaded = loaded
          $0.loading = nil
        }
      }
      return loaded
    } catch {
      // A failed read is not kept: the next question reads again.
      state.withLock { if $0.generation == pending.generation { $0.loading = nil } }
      throw error as? StoreError ?? .unavailable("\(error)")
    }
  }

  /// A read of the lists under way, for the generation it started in.
  private struct Pending: Error {
    let task: Task<Loaded, any Error>
    let generation: Int
  }
}
