import Foundation
import QnA

/// What a session's word filter does with a question that matches.
public enum FilterMode: String, Sendable, Hashable, Codable, CaseIterable {
  /// To the presenters' review, even without `--moderation`, marked with what matched.
  case review
  /// Refused, for good: the asker is told the session does not take it.
  case refuse
}

/// A session's word filter as the store keeps it: its lists by name, what a match does, and
/// the attendees whose questions the presenters silenced (they meet the same mode).
public struct FilterSettings: Sendable, Hashable {
  public var lists: [String: [String]]
  public var mode: FilterMode
  public var silenced: Set<UUID>

  public init(
    lists: [String: [String]] = [:], mode: FilterMode = .review, silenced: Set<UUID> = []
  ) {
    self.lists = lists
    self.mode = mode
    self.silenced = silenced
  }
}

/// A change to one word list: its entries replaced, or some added and some taken out.
public struct FilterChange: Sendable, Hashable {
  public var replacing: Bool
  public var adding: [String]
  public var removing: [String]

  public init(replacing: Bool = false, adding: [String] = [], removing: [String] = []) {
    self.replacing = replacing
    self.adding = adding
    self.removing = removing
  }

  /// Each entry once, in order.
  var unique: FilterChange {
    FilterChange(
      replacing: replacing, adding: Array(Set(adding)).sorted(),
      removing: Array(Set(removing)).sorted())
  }
}

/// The sessions' word filters: lists of words the organiser edits, one transaction each,
/// exactly once per token, told to the other instances.
extension ModerationStore {
  /// The most lists a session has (a list per language, and a few of the organiser's own).
  public static let maxFilterLists = 16
  /// A list's name: 1–32 lower-case letters, digits, `-` and `_` (`en`, `de`, `speakers`).
  public static func validListName(_ name: String) -> Bool {
    (1...32).contains(name.count)
      && name.allSatisfy {
        ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
      }
  }

  public func filterSettings() async throws(StoreError) -> FilterSettings {
    try await timed { try await driver.fetch(.filterSettings(session: session)) }
  }

  /// Replaces list `name` with `entries` (none: the list goes). Entries are checked by the
  /// caller (`WordFilter.problem`); the store keeps each once, and refuses a list that would
  /// take the session past `maxEntries` entries or `maxFilterLists` lists.
  public func replaceFilterList(
    _ name: String, entries: [String], maxEntries: Int, token: UUID, at time: Date
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    try await changeFilterList(
      name, FilterChange(replacing: true, adding: entries, removing: []), maxEntries: maxEntries,
      token: token, at: time)
  }

  /// Adds entries to list `name` (made if it is new) and takes others out of it, within
  /// the same bounds.
  public func changeFilterList(
    _ name: String, _ change: FilterChange, maxEntries: Int, token: UUID, at time: Date
  ) async throws(StoreError) -> QuestionStore.RoomActionOutcome {
    let (action, text) = StoreRules.filterListAction(name, change.unique)
    let flow = RoomActionFlow.filterList(
      name, change.unique, maxEntries: maxEntries, session: session)
    return try await timed {
      try await driver.transact(
        flow.transaction(action: action, text: text, token: token, at: time, session: session),
        writes: true, locking: session)
    }
  }

  public func setFilterMode(_ mode: FilterMode, token: UUID, at time: Date)
    async throws(StoreError) -> QuestionStore.RoomActionOutcome
  {
    let (action, text) = StoreRules.filterModeAction(mode)
    // No log row: attendees see nothing of the filter, so the room is not told.
    return try await timed {
      try await driver.transact(
        RoomActionFlow.filterMode(mode).transaction(
          action: action, text: text, token: token, at: time, session: session),
        writes: true, locking: session)
    }
  }
}

extension RoomActionFlow {
  /// What a match of the word filter does from now on.
  package static func filterMode(_ mode: FilterMode) -> RoomActionFlow {
    .write([.state("filterMode", mode.rawValue), .tellOthers(.filter)])
  }
}

extension StoreRules {
  /// How a filter action is kept in the log of room actions: its action and its text (what
  /// a token names, so that a token reused for another change is refused).
  package static func filterListAction(_ name: String, _ change: FilterChange) -> (String, String) {
    if change.replacing {
      // The entries' digest too: the same token again with another list is another action.
      return ("filterList", "\(name): \(change.adding.count) entries, \(digest(change.adding))")
    }
    let entries = change.adding.map { "+" + $0 } + change.removing.map { "-" + $0 }
    return ("filterEdit", "\(name): " + entries.joined(separator: " "))
  }

  package static func filterModeAction(_ mode: FilterMode) -> (String, String) {
    ("filterMode", mode.rawValue)
  }

  /// FNV-1a of the entries, in order, one per line: the same on every instance and run
  /// (unlike `Hasher`), enough to tell two lists apart under one token.
  static func digest(_ entries: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in entries.joined(separator: "\n").utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }

  /// How many entries list `own` has after `change`.
  package static func entriesAfter(_ change: FilterChange, own: [String]) -> Int {
    var entries = change.replacing ? [] : Set(own)
    entries.subtract(change.removing)
    entries.formUnion(change.adding)
    return entries.count
  }

  /// Why a list cannot be stored as asked, or nil: within the session's lists and entries.
  /// `entries`: the list's after the change; the others: the session's other lists.
  package static func filterListRefusal(
    entries: Int, otherEntries: Int, otherLists: Int, maxEntries: Int
  ) -> String? {
    if entries > 0, otherLists >= ModerationStore.maxFilterLists {
      return "A session has at most \(ModerationStore.maxFilterLists) word lists."
    }
    if entries + otherEntries > maxEntries {
      return "A session's word lists hold at most \(maxEntries) entries together"
        + " (the others have \(otherEntries))."
    }
    return nil
  }
}
