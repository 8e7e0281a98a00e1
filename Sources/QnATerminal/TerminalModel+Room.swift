import CommandLineValues
import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The two lists `qna` shows.
public enum ListView: Sendable, Equatable {
  /// Every question of the room, with votes (servers with the room).
  case room
  /// The attendee's own questions with their states, as on every server.
  case mine
}

extension TerminalModel {
  /// The list on screen: the one chosen with Tab, the room by default where the server has
  /// it, the attendee's own questions where it does not.
  public var listView: ListView {
    guard state.room.isAvailable || options.presenter else { return .mine }
    return chosenView ?? .room
  }

  /// The room as the view lists it: sorted, searched.
  var roomList: RoomList {
    RoomList(
      entries: roomEntries, width: columns, height: listHeight, words: options.screenReader,
      unconfirmed: options.screenReader && options.presenter
        ? Set(state.desk.queue.compactMap(\.question)) : [])
  }

  /// Text keys with a meaning of their own on an empty input line.
  static let emptyLineKeys: Set<String> = ["?", "+", "/"]

  /// How long a question that gained votes stays marked as it moves up.
  static let riseDuration = Duration.seconds(2)

  func isRising(_ entry: RoomEntry) -> Bool {
    guard !options.screenReader, let at = state.room.risenAt[entry.id] else { return false }
    return now < at + Self.riseDuration
  }

  /// The room's entries again, after the state, the order or the search changed; the
  /// selection follows its question, or takes its place's neighbour when it left.
  mutating func refreshRoom(searchChanged: Bool = false) {
    var all = state.roomEntries(order)
    if options.presenter {
      tabCounts = Dictionary(grouping: all, by: \.state).mapValues(\.count)
      all = all.filter { $0.state == presenterTab }
    }
    roomVoted = all.count { $0.voted }
    roomSize = all.count
    let needle = filter.trimmingSpaces()
    let matches = Self.searchMatcher(for: needle)
    roomEntries = needle.isEmpty ? all : all.filter(matches)
    if searchChanged, let selection, !roomEntries.contains(where: { $0.id == selection.id }) {
      self.selection = nil
    }
    selection = roomList.resolve(selection)
    // The console's keys act on the selected question: its list is never without one while
    // it has questions (from the start, and once an empty list fills).
    if options.presenter, selection == nil { selection = roomList.first() }
  }

  // MARK: Keys

  /// Keys with a meaning in the room view; `nil` when the key is the line editor's.
  mutating func handleRoomKey(_ key: Key) -> [TerminalAction]? {
    let list = roomList
    // From the line being typed, ↑ ↓ first go back to the selected question, for a screen
    // reader to hear the one it was on rather than its neighbour.
    if options.screenReader, !options.presenter, !listHasFocus, selection != nil,
      key == .up || key == .down
    {
      return []
    }
    switch key {
    case .up: selection = list.moved(selection, by: -1)
    case .down: selection = list.moved(selection, by: 1)
    case .wheelUp: selection = list.moved(selection, by: -3)
    case .wheelDown: selection = list.moved(selection, by: 3)
    case .pageUp: selection = list.paged(selection, down: false)
    case .pageDown: selection = list.paged(selection, down: true)
    // The line keeps Ctrl-A and Ctrl-E; Home and End are the list's here.
    case .home: selection = list.first()
    case .end: selection = list.last()
    case .escape:
      // Back to the top of the room, unsearched (in the console, on its top question).
      selection = nil
      if !filter.isEmpty {
        filter = ""
        refreshRoom(searchChanged: true)
      }
      if options.presenter { selection = roomList.first() }
    case .function(2), .control("o"):
      order = order == .popular ? .recent : .popular
      refreshRoom()
    case .control("v"): return voteForSelection()
    case .text("+") where editor.isEmpty: return voteForSelection()
    case .text("/") where editor.isEmpty:
      search = LineEditor(filter)
    default: return nil
    }
    return []
  }

  /// Tab: the other list, where the server has a room.
  mutating func switchView() {
    guard state.room.isAvailable else {
      addNotice(tr("This server shows only your own questions."), kind: .info)
      return
    }
    chosenView = listView == .room ? .mine : .room
  }

  /// Votes for the selected question, or takes the vote back.
  private mutating func voteForSelection() -> [TerminalAction] {
    guard let selection, let entry = roomEntries.first(where: { $0.id == selection.id }) else {
      addNotice(tr("Select a question with ↑ ↓ first, then vote."), kind: .info)
      return []
    }
    return [.vote(entry.id, up: !entry.voted)]
  }

  // MARK: Searching

  /// Keys while the search line is open: it filters the room as it is typed; Enter keeps
  /// the search, Esc drops it.
  mutating func handleSearchKey(_ key: Key) -> [TerminalAction] {
    guard var line = search else { return [] }
    switch key {
    case .text(let text):
      // "//" types a slash into the question line: a question may start with one.
      if line.isEmpty, text.hasPrefix("/") {
        search = nil
        editor.insert(Self.typeable(text))
        keepCursorVisible()
        return []
      }
      line.insert(Self.typeable(Self.oneLine(text)))
    case .enter:
      search = nil
      filter = line.text.trimmingSpaces()
      refreshRoom(searchChanged: true)
      return []
    case .escape:
      search = nil
      filter = ""
      refreshRoom(searchChanged: true)
      return []
    case .backspace where line.isEmpty, .control("h") where line.isEmpty:
      search = nil
      return []
    case .control("c"):
      search = nil
      return handle(key)
    case .up, .down, .pageUp, .pageDown, .wheelUp, .wheelDown, .home, .end:
      return handleRoomKey(key) ?? []
    case .tab:
      search = nil
      switchView()
      return []
    default:
      Self.edit(key, in: &line)
    }
    search = line
    filter = line.text
    refreshRoom(searchChanged: true)
    return []
  }
}
