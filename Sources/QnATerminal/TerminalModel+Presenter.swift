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

/// An answer being typed in the presenter's console, for the question it answers.
public struct AnswerDraft: Sendable, Equatable {
  public var question: UUID
  /// Only the asker will read it.
  public var isPrivate: Bool
}

/// A line about the room the presenter types in the console.
public enum RoomEdit: Sendable, Equatable {
  /// The room's banner (`b`).
  case announcement
  /// A word for the session's filter (`w`): added, or taken out with a leading `-`.
  case filterWord
  /// A question's text, corrected (`e`).
  case questionText(UUID)
  /// A question's label (`l`): one of the session's, or none.
  case questionLabel(UUID)
  /// A label for the session (`L`): added, or taken out with a leading `-`.
  case sessionLabel
}

/// The presenter's console (`qna present`): the questions by state, one list per tab, and
/// single keys that act on the selected one. Live updates never move the selection: it stays
/// on its question, or on the neighbour that took its place when the question left the list.
extension TerminalModel {
  /// The lists, in the order Tab visits them.
  public static let presenterTabs: [QuestionState] = [.review, .live, .answered, .dismissed]

  var answerPrompt: String { prompt(tr("Answer")) }
  var privateAnswerPrompt: String { prompt(tr("Private answer")) }
  var announcementPrompt: String { prompt(tr("Announcement")) }
  var filterWordPrompt: String { prompt(tr("Filter word (-word takes it out)")) }
  var editPrompt: String { prompt(tr("Edit the question")) }
  var labelPrompt: String { prompt(tr("Label (empty: none)")) }
  var sessionLabelPrompt: String { prompt(tr("New label (-label takes it out)")) }

  /// The prompt of the line being typed about the room, or `nil` for an answer's.
  var roomEditPrompt: String? {
    switch roomEdit {
    case .announcement: announcementPrompt
    case .filterWord: filterWordPrompt
    case .questionText: editPrompt
    case .questionLabel: labelPrompt
    case .sessionLabel: sessionLabelPrompt
    case nil: nil
    }
  }
  static var presenterHint: String {
    // TRANSLATORS: each single letter is the key that does what follows it: keep the letters.
    tr(
      "a approve · e edit · d dismiss · r restore · h now answering · N next · n queue · m answered · t/p answer · * star · b announce · u undo · ? keys"
    )
  }

  mutating func handlePresenterKey(_ key: Key) -> [TerminalAction] {
    if answering != nil { return handleAnswerKey(key) }
    if let roomEdit { return handleRoomEditKey(key, roomEdit) }
    // Keys typed quickly arrive joined: each is a key of its own.
    if case .text(let text) = key, text.count > 1 {
      return text.flatMap { handlePresenterKey(.text(String($0))) }
    }
    switch key {
    case .tab: showTab(offset: 1)
    case .text("1"): showTab(.review)
    case .text("2"): showTab(.live)
    case .text("3"): showTab(.answered)
    case .text("4"): showTab(.dismissed)
    case .text("a"): return act(.approve)
    case .text("d"): return act(.dismiss)
    case .text("r"): return act(.restore)
    case .text("h"):
      guard let entry = selectedEntry else { return act(.highlight) }
      return act(entry.highlighted ? .unhighlight : .highlight)
    case .text("m"), .enter: return act(.answer)
    case .text("t"), .text("p"):
      guard let entry = selectedEntry else { return act(.answer) }
      answering = AnswerDraft(question: entry.id, isPrivate: key == .text("p"))
      editor = LineEditor(entry.answer ?? "")
      keepCursorVisible()
    case .text("b"):
      guard serves(ProtocolExtension.announcements, tr("This server has no announcements."))
      else { return [] }
      roomEdit = .announcement
      editor = LineEditor(state.room.announcement?.text ?? "")
      keepCursorVisible()
    case .text("w"):
      guard serves(ProtocolExtension.wordFilter, tr("This server has no word filter.")) else {
        return []
      }
      roomEdit = .filterWord
      editor = LineEditor()
      keepCursorVisible()
    case .text("e"):
      guard serves(ProtocolExtension.moderation, tr("This server cannot edit questions.")) else {
        return []
      }
      guard let entry = selectedEntry else { return act(.edit) }
      roomEdit = .questionText(entry.id)
      editor = LineEditor(entry.question.content)
      keepCursorVisible()
    case .text("l"), .text("L"): return labelKey(key)
    case .text("x"), .text("X"):
      guard serves(ProtocolExtension.moderation, tr("This server cannot silence an asker."))
      else { return [] }
      return act(key == .text("x") ? .silence : .unsilence)
    case .text("*"), .text("n"), .text("["), .text("]"), .text("T"), .text("N"), .text("v"):
      return queueKey(key)
    case .text("u"): return [.undo]
    case .text("s"), .function(2), .control("o"):
      order = order == .popular ? .recent : .popular
      refreshRoom()
    case .text("/"): search = LineEditor(filter)
    case .text("?"), .function(1): showHelp()
    case .text("j"): showsJoin = options.join != nil
    case .text("q"), .control("c"), .control("d"): return requestQuit()
    case .control("l"): return [.redraw]
    case .control("r"): return [.reconnectNow]
    case .up, .down, .pageUp, .pageDown, .wheelUp, .wheelDown, .home, .end, .escape:
      return handleRoomKey(key) ?? []
    default: break
    }
    return []
  }

  /// Keys while an answer is typed: the line editor's, Enter sends, Esc drops it.
  private mutating func handleAnswerKey(_ key: Key) -> [TerminalAction] {
    guard let draft = answering else { return [] }
    switch key {
    case .enter:
      let text = editor.text.trimmingSpaces()
      answering = nil
      editor = LineEditor()
      inputOffset = 0
      return [
        .act(.answer, draft.question, text: text.isEmpty ? nil : text, isPrivate: draft.isPrivate)
      ]
    case .escape:
      answering = nil
      editor = LineEditor()
      inputOffset = 0
      addNotice(tr("Answer dropped."), kind: .info)
    case .control("c"): return requestQuit()
    case .text(let text): editor.insert(Self.typeable(text))
    default: Self.edit(key, in: &editor)
    }
    keepCursorVisible()
    return []
  }

  /// Keys while a line about the room is typed. An announcement: Enter shows it to the room
  /// (an empty line clears the one shown). A filter word: Enter adds it to the session's
  /// list (`-word` takes it out; an empty line does nothing). Esc drops the line.
  private mutating func handleRoomEditKey(_ key: Key, _ edit: RoomEdit) -> [TerminalAction] {
    switch key {
    case .enter:
      let text = editor.text.trimmingSpaces()
      roomEdit = nil
      editor = LineEditor()
      inputOffset = 0
      switch edit {
      case .announcement:
        return [.act(.announce, nil, text: text.isEmpty ? nil : text, isPrivate: false)]
      case .questionText(let question):
        guard !text.isEmpty else { return [] }
        return [.act(.edit, question, text: text, isPrivate: false)]
      case .filterWord, .sessionLabel:
        guard !text.isEmpty else { return [] }
        let removing = text.hasPrefix("-")
        let entry = removing ? String(text.dropFirst()).trimmingSpaces() : text
        guard !entry.isEmpty else { return [] }
        let kind: PresenterActionKind =
          edit == .filterWord
          ? (removing ? .filterRemove : .filterAdd) : (removing ? .labelRemove : .labelAdd)
        return [.act(kind, nil, text: entry, isPrivate: false)]
      case .questionLabel(let question):
        return relabel(question, as: text)
      }
    case .escape:
      roomEdit = nil
      editor = LineEditor()
      inputOffset = 0
      switch edit {
      case .announcement: addNotice(tr("Announcement dropped."), kind: .info)
      case .filterWord: addNotice(tr("Filter word dropped."), kind: .info)
      case .questionText: addNotice(tr("Edit dropped."), kind: .info)
      case .questionLabel, .sessionLabel: addNotice(tr("Label dropped."), kind: .info)
      }
    case .control("c"): return requestQuit()
    case .text(let text): editor.insert(Self.typeable(text))
    default: Self.edit(key, in: &editor)
    }
    keepCursorVisible()
    return []
  }

  /// Whether the server announced `extension`; when not, `refusal` is said in a notice (a
  /// key for a feature the server lacks does nothing else).
  private mutating func serves(_ extension: String, _ refusal: String) -> Bool {
    guard state.serverExtensions.contains(`extension`) else {
      addNotice(refusal, kind: .info)
      return false
    }
    return true
  }

  /// Extension `queue`: `*` stars or unstars the selected question, `n` puts it next up or
  /// takes it out, `[` `]` move it up or down the queue, `T` to its top; `N` makes the next
  /// one the question being answered; `v` shows the queue to the room or hides it.
  private mutating func queueKey(_ key: Key) -> [TerminalAction] {
    guard serves(ProtocolExtension.queue, tr("This server has no next-up queue.")) else {
      return []
    }
    switch key {
    case .text("N"): return [.act(.next, nil, text: nil, isPrivate: false)]
    case .text("v"):
      return [
        .act(state.room.nextUp.shown ? .hideQueue : .showQueue, nil, text: nil, isPrivate: false)
      ]
    case .text("*"): return act(selectedEntry?.question.starred == true ? .unstar : .star)
    case .text("n"): return act(selectedEntry?.nextUp == nil ? .enqueue : .dequeue)
    case .text("["): return act(.moveUp)
    case .text("]"): return act(.moveDown)
    default: return act(.moveToTop)
    }
  }

  var selectedEntry: RoomEntry? {
    selection.flatMap { selection in roomEntries.first { $0.id == selection.id } }
  }

  private mutating func act(_ kind: PresenterActionKind) -> [TerminalAction] {
    guard let entry = selectedEntry else {
      addNotice(tr("Select a question with ↑ ↓ first."), kind: .info)
      return []
    }
    return [.act(kind, entry.id, text: nil, isPrivate: false)]
  }

  mutating func showTab(offset: Int) {
    let index = Self.presenterTabs.firstIndex(of: presenterTab) ?? 0
    showTab(Self.presenterTabs[(index + offset) % Self.presenterTabs.count])
  }

  mutating func showTab(_ tab: QuestionState) {
    guard tab != presenterTab else { return }
    presenterTab = tab
    selection = nil
    refreshRoom()
    selection = roomList.first()
  }

  static func tabName(_ tab: QuestionState) -> String {
    switch tab {
    case .review: tr("Review")
    case .live: tr("Live")
    case .answered: tr("Answered")
    case .dismissed: tr("Dismissed")
    }
  }

  /// The tabs with their counts, for the footer: the one shown in brackets.
  package var tabSummary: String {
    Self.presenterTabs.map { tab in
      let label = "\(Self.tabName(tab)) \(tabCounts[tab] ?? 0)"
      return tab == presenterTab ? "[\(label)]" : label
    }.joined(separator: " · ")
  }
}
