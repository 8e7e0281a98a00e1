import CommandLineValues
import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A poll being answered in the terminal (extension `polls`): which poll, the option the
/// cursor is on, and the answer as it is being made.
public struct PollPanel: Sendable, Equatable {
  public var poll: UUID
  public var cursor = 0
  /// `multiple`: the options marked; `ranking`: the options in the order picked.
  public var chosen: [Int] = []
  /// `rating`: the value on the scale.
  public var rating: Int?
  /// `words`: the entries typed, separated by commas; `text`: the answer typed.
  public var words = LineEditor()

  public init(poll: UUID) { self.poll = poll }
}

extension TerminalModel {
  /// The keys that open the next open poll: F5, or Alt-P.
  static let pollKeys: [Key] = [.function(5), .alt("p"), .alt("P")]

  /// The open polls, in order.
  var openPolls: [RoomPoll] { state.room.polls.open }

  /// The poll the panel shows, as the room has it now.
  var panelPoll: RoomPoll? { pollPanel.flatMap { state.room.polls.byID[$0.poll] } }

  /// The presenter's console, F5: every poll of the session, the first (or the one after
  /// the poll shown); none: said.
  mutating func openPresenterPolls() -> [TerminalAction] {
    let polls = state.room.polls.ordered
    guard !polls.isEmpty else {
      pollPanel = nil
      addNotice(
        tr("The session has no poll: make them on the presenter page or the API."), kind: .info)
      return []
    }
    let after = pollPanel.flatMap { panel in polls.firstIndex { $0.id == panel.poll } }
    pollPanel = PollPanel(poll: polls[after.map { ($0 + 1) % polls.count } ?? 0].id)
    return []
  }

  /// A key on the console's poll panel: ↑ ↓ another poll; o opens or closes it, s shows or
  /// hides its results, r resets it, X deletes it; on an open text, a approves and d
  /// dismisses the entry that has waited longest, D dismisses the newest live one; Esc
  /// closes the panel.
  mutating func handlePresenterPollKey(_ key: Key) -> [TerminalAction] {
    let polls = state.room.polls.ordered
    guard let panel = pollPanel, let index = polls.firstIndex(where: { $0.id == panel.poll }) else {
      pollPanel = nil
      return []
    }
    let poll = polls[index]
    switch key {
    case .escape:
      pollPanel = nil
    case .control("c"): return requestQuit()
    case .up: pollPanel = PollPanel(poll: polls[max(0, index - 1)].id)
    case .down, .function(5): pollPanel = PollPanel(poll: polls[min(polls.count - 1, index + 1)].id)
    case .text("o"): return [.pollAction(poll.pollState == .open ? .close : .open, poll.id)]
    case .text("s"): return [.pollAction(poll.shown ? .hide : .show, poll.id)]
    case .text("r"): return [.pollAction(.reset, poll.id)]
    case .text("X"): return [.pollAction(.delete, poll.id)]
    case .text("a"), .text("d"):
      guard let entry = poll.results?.review?.first?.text else { break }
      return [.pollAction(key == .text("a") ? .approve : .dismiss, poll.id, text: entry)]
    case .text("D"):
      guard let entry = poll.results?.texts?.first?.text else { break }
      return [.pollAction(.dismiss, poll.id, text: entry)]
    default: break
    }
    return []
  }

  /// F5: the first open poll, or the one after the poll shown; none open: said.
  mutating func openNextPoll() -> [TerminalAction] {
    let open = openPolls
    guard !open.isEmpty else {
      pollPanel = nil
      addNotice(tr("No poll is open."), kind: .info)
      return []
    }
    let after = pollPanel.flatMap { panel in open.firstIndex { $0.id == panel.poll } }
    let next = open[after.map { ($0 + 1) % open.count } ?? 0]
    var panel = PollPanel(poll: next.id)
    // What this attendee answered before, ready to change.
    let answer = state.room.polls.answer(to: next.id)
    switch next.pollKind {
    case .multiple?, .ranking?: panel.chosen = answer?.choices ?? []
    case .single?: panel.cursor = answer?.choices?.first ?? 0
    case .rating?:
      let scale = next.scale ?? PollScale(min: 1, max: 5)
      panel.rating = answer?.rating ?? (scale.min + scale.max) / 2
    case .words?: panel.words.replace(with: (answer?.words ?? []).joined(separator: ", "))
    case .text?: panel.words.replace(with: answer?.text ?? "")
    case nil: break
    }
    pollPanel = panel
    return []
  }

  /// A key while the poll panel is open.
  mutating func handlePollKey(_ key: Key) -> [TerminalAction] {
    guard var panel = pollPanel, let poll = panelPoll, let kind = poll.pollKind else {
      pollPanel = nil
      return []
    }
    if Self.pollKeys.contains(key) { return openNextPoll() }
    let options = poll.options?.count ?? 0
    switch key {
    case .escape:
      pollPanel = nil
      return []
    case .control("c"): return requestQuit()
    case .enter:
      guard let value = Self.answer(panel, kind: kind, poll: poll) else {
        let typed = !panel.words.text.trimmingWhiteSpace().isEmpty
        switch kind {
        case .text where typed:
          addNotice(
            Catalogue.format(
              tr("An answer has at most %d characters."), PollRules.maxTextAnswerLength),
            kind: .error)
        case .words, .text: addNotice(tr("Type your answer first."), kind: .info)
        default: addNotice(tr("Choose first: Space marks an option."), kind: .info)
        }
        return []
      }
      pollPanel = nil
      return [.answerPoll(poll.id, value)]
    default: break
    }
    switch kind {
    case .words, .text:
      if case .text(let text) = key {
        panel.words.insert(Self.typeable(Self.oneLine(text)))
      } else {
        Self.edit(key, in: &panel.words)
      }
    case .rating:
      let scale = poll.scale ?? PollScale(min: 1, max: 5)
      let step = scale.count > 11 ? 5 : 1
      let value = panel.rating ?? scale.min
      switch key {
      case .left, .down: panel.rating = max(scale.min, value - step)
      case .right, .up: panel.rating = min(scale.max, value + step)
      case .home: panel.rating = scale.min
      case .end: panel.rating = scale.max
      case .text(let text) where text.allSatisfy(\.isNumber):
        // Digits typed quickly arrive together; one at a time they make a number.
        let typed = Int(text) ?? value
        let joined = Int("\(value)\(text)") ?? typed
        panel.rating =
          (scale.min...scale.max).contains(joined) && value != scale.min ? joined : typed
        panel.rating = min(scale.max, max(scale.min, panel.rating ?? scale.min))
      default: break
      }
    case .single, .multiple, .ranking:
      switch key {
      case .up: panel.cursor = max(0, panel.cursor - 1)
      case .down: panel.cursor = min(max(0, options - 1), panel.cursor + 1)
      case .home: panel.cursor = 0
      case .end: panel.cursor = max(0, options - 1)
      case .text(" "):
        if let index = panel.chosen.firstIndex(of: panel.cursor) {
          panel.chosen.remove(at: index)
        } else if kind == .single {
          panel.chosen = [panel.cursor]
        } else if kind == .ranking || panel.chosen.count < (poll.max ?? options) {
          panel.chosen.append(panel.cursor)
        }
      case .text(let text) where text.count == 1 && text.first?.isNumber == true:
        // A digit picks that option (1 for the first).
        let index = (Int(text) ?? 0) - 1
        if (0..<options).contains(index) { panel.cursor = index }
      default: break
      }
    }
    pollPanel = panel
    return []
  }

  /// The answer the panel makes, or `nil` when nothing is chosen yet.
  static func answer(_ panel: PollPanel, kind: PollKind, poll: RoomPoll) -> PollValue? {
    let options = poll.options?.count ?? 0
    switch kind {
    case .single:
      return options > 0 ? PollValue(choices: [panel.chosen.first ?? panel.cursor]) : nil
    case .multiple: return panel.chosen.isEmpty ? nil : PollValue(choices: panel.chosen.sorted())
    case .ranking:
      // The options picked, in order, then the rest in the poll's order.
      let rest = (0..<options).filter { !panel.chosen.contains($0) }
      return options > 0 ? PollValue(choices: panel.chosen + rest) : nil
    case .rating: return panel.rating.map { PollValue(rating: $0) }
    case .words:
      let entries = panel.words.text.split(separator: ",").map { String($0).trimmingWhiteSpace() }
        .filter { !$0.isEmpty }
      return entries.isEmpty ? nil : PollValue(words: entries)
    case .text: return PollRules.cleanText(panel.words.text).map { PollValue(text: $0) }
    }
  }
}
