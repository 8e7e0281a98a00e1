import CommandLineValues
import QnA

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Extension `labels` in the terminal: the presenter files questions under the session's
/// labels (`l`) and keeps the list (`L`); an attendee picks the label of their next
/// questions (Alt-L, F4); a search for `#label` shows only that label's questions.
extension TerminalModel {
  /// `l`: the selected question's label, typed (its current one to start from); `L`: a label
  /// for the session, or `-label` to take one out.
  mutating func labelKey(_ key: Key) -> [TerminalAction] {
    guard state.serverExtensions.contains(ProtocolExtension.labels) else {
      addNotice(tr("This server has no labels."), kind: .info)
      return []
    }
    if key == .text("L") {
      roomEdit = .sessionLabel
      editor = LineEditor()
    } else {
      guard let entry = selectedEntry else {
        addNotice(tr("Select a question with ↑ ↓ first."), kind: .info)
        return []
      }
      roomEdit = .questionLabel(entry.id)
      editor = LineEditor(entry.question.label ?? "")
    }
    keepCursorVisible()
    return []
  }

  /// The question's label is `typed` (whatever its case), or none when empty; a label the
  /// session does not have is said with the ones it has, and nothing is sent.
  mutating func relabel(_ question: UUID, as typed: String) -> [TerminalAction] {
    guard !typed.isEmpty else { return [.act(.relabel, question, text: nil, isPrivate: false)] }
    guard let label = SessionLabels.match(typed, in: state.room.labels) else {
      addNotice(Self.unknownLabelWords(typed, labels: state.room.labels), kind: .error)
      return []
    }
    return [.act(.relabel, question, text: label, isPrivate: false)]
  }

  static func unknownLabelWords(_ typed: String, labels: [String]) -> String {
    let shown = Sanitizer.forScreen(String(typed.prefix(SessionLabels.maxLength)))
    return labels.isEmpty
      ? tr("This session has no labels: L adds one.")
      : Catalogue.format(
        tr("No label “%1$s”; the labels are %2$s."), shown,
        Sanitizer.forScreen(labels.joined(separator: ", ")))
  }

  /// Alt-L, F4: the attendee's next questions go under the session's next label, and after
  /// the last one under none.
  mutating func nextAskLabel() -> [TerminalAction] {
    let labels = state.room.labels
    guard state.serverExtensions.contains(ProtocolExtension.labels), !labels.isEmpty else {
      addNotice(tr("This session has no labels."), kind: .info)
      return []
    }
    let index = state.askLabel.flatMap(labels.firstIndex(of:)).map { $0 + 1 } ?? 0
    return [.label(index < labels.count ? labels[index] : nil)]
  }

  /// Whether `entry` is shown under the search `needle`: `#label` names a label (whatever
  /// its case), anything else is looked for in the text.
  static func searchMatcher(for needle: String) -> (RoomEntry) -> Bool {
    if needle.hasPrefix("#"), needle.count > 1 {
      let wanted = needle.dropFirst().lowercased()
      return { $0.question.label?.lowercased() == wanted }
    }
    let matches = SearchText.matcher(for: needle)
    return { matches($0.question.content) }
  }
}
