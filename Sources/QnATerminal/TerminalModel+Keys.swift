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

extension TerminalModel {
  /// Applies a key; returns what the UI loop must do.
  public mutating func handle(_ key: Key) -> [TerminalAction] {
    // A projector's screen takes no input: q, Escape or Ctrl-C ends it. Keys typed together
    // arrive as one run of text ("xq"): a q anywhere in it ends it too.
    if options.projector != nil {
      if case .text(let text) = key, text.contains(where: { "qQ".contains($0) }) { return [.quit] }
      return [.escape, .control("c")].contains(key) ? [.quit] : []
    }
    // A screen reader's room waits for a key: it is brought up to date before the key acts.
    if catchUpBeforeKey() { return [] }
    // F3 puts the cursor on the footer's announcement; any key takes it back.
    let wasOnAnnouncement = announcementHasFocus
    announcementHasFocus = false
    if key == .function(3), !showsHelp, !confirmingQuit, search == nil {
      announcementHasFocus = !wasOnAnnouncement
      return []
    }
    // A key that closes an overlay, or answers the quit question, leaves the focus be.
    let keyIsForTheScreen = !showsHelp && !showsJoin && !confirmingQuit && !pasting && search == nil
    let searching = search != nil
    let actions = apply(key)
    if key == .pasteStart {
      // A paste goes to the line being typed (or the search line, which has the cursor).
      listHasFocus = false
    } else if searching {
      // ↑ ↓ move the selection under an open search: once it closes, the focus is there.
      if [.up, .down, .pageUp, .pageDown].contains(key) { listHasFocus = true }
    } else if keyIsForTheScreen, !showsHelp, !showsJoin, !confirmingQuit {
      // A key that opened the help or the quit question leaves the focus for their end.
      moveFocus(after: key)
    }
    return actions
  }

  /// Where the focus goes after a key: to the list after a move in it, to the line being
  /// typed after typing or editing; keys that act on the focused question, and the wheel
  /// (which scrolls without taking the cursor from a line being typed), leave it there.
  private mutating func moveFocus(after key: Key) {
    switch key {
    case .up, .down, .pageUp, .pageDown: listHasFocus = true
    // Home and End move in a line being typed, and in the list otherwise.
    case .home, .end: listHasFocus = listView == .room || editor.isEmpty
    case .text("+") where listView == .room && editor.isEmpty: break
    case .control("v"), .control("o"), .control("l"), .control("r"), .function, .resize,
      .wheelUp, .wheelDown:
      break
    case .text, .enter, .escape, .tab, .left, .right, .backspace, .delete, .control, .alt:
      listHasFocus = false
    default: break
    }
  }

  /// Whether the cursor belongs on the list's focused question (the room's selection, the
  /// question at the top of a scrolled Mine, the presenter's selection) rather than on the
  /// line being typed.
  public var listFocusIsShown: Bool {
    guard search == nil, !showsHelp, !confirmingQuit else { return false }
    if options.presenter { return answering == nil && roomEdit == nil && selection != nil }
    switch listView {
    case .room: return listHasFocus && selection != nil
    case .mine: return listHasFocus && scroll != .following
    }
  }

  private mutating func apply(_ key: Key) -> [TerminalAction] {
    // Paste markers first: a paste that closes an overlay must still be one question.
    if key == .pasteStart || key == .pasteEnd {
      pasting = key == .pasteStart
      showsHelp = false
      confirmingQuit = false
      return []
    }
    if showsHelp || showsJoin {
      if showsHelp, scrollHelp(key) { return [] }
      // Any other key closes the help (or how to join); Ctrl-C still quits from there.
      showsHelp = false
      showsJoin = false
      return key == .control("c") ? requestQuit() : []
    }
    if confirmingQuit {
      confirmingQuit = false
      switch key {
      case .control("c"): return [.quit]
      // Keys typed quickly arrive joined: "yes" is a yes too.
      // Or the language's own yes ("j" in German, "s" in Spanish, "t" in Polish).
      case .text(let text) where text.lowercased().hasPrefix("y") || rpmatch(text) == 1:
        return [.quit]
      default: return []
      }
    }
    if pasting {
      return handlePaste(key)
    }
    if search != nil {
      return handleSearchKey(key)
    }
    if pollPanel != nil {
      return options.presenter ? handlePresenterPollKey(key) : handlePollKey(key)
    }
    if Self.pollKeys.contains(key), state.hasPolls {
      return options.presenter ? openPresenterPolls() : openNextPoll()
    }
    if options.presenter {
      return handlePresenterKey(key)
    }
    if key == .tab {
      switchView()
      return []
    }
    // Alt-L, F4: the label of the next questions, from either list.
    if [.function(4), .alt("l"), .alt("L")].contains(key) { return nextAskLabel() }
    if listView == .room, let actions = handleRoomKey(key) {
      return actions
    }
    switch key {
    case .text(let text):
      if text == "?" && editor.isEmpty {
        showHelp()
        return []
      }
      editor.insert(Self.typeable(text))
    case .enter: return submit()
    case .function(1):
      showHelp()
    case .control("c"): return requestQuit()
    case .control("d"):
      if editor.isEmpty { return requestQuit() }
      editor.deleteForward()
    case .control("l"): return [.redraw]
    case .control("r"): return [.reconnectNow]
    case .control("t"): return retryLastFailed()
    case .control("x"): return discardLastFailed()
    case .control("p"):
      if let line = history.previous(current: editor.text) { editor.replace(with: line) }
    case .control("n"):
      if let line = history.next() { editor.replace(with: line) }
    case .up: scroll = questionList.scrolled(scroll, by: -1)
    case .down: scroll = questionList.scrolled(scroll, by: 1)
    case .wheelUp: scroll = questionList.scrolled(scroll, by: -3)
    case .wheelDown: scroll = questionList.scrolled(scroll, by: 3)
    case .pageUp: scroll = questionList.scrolled(scroll, by: -max(1, listHeight - 1))
    case .pageDown: scroll = questionList.scrolled(scroll, by: max(1, listHeight - 1))
    case .home:
      // Home/End move in the line being typed, and scroll the list when it is empty.
      if editor.isEmpty { scroll = questionList.scrolledToTop() } else { editor.moveToStart() }
    case .end:
      if editor.isEmpty { scroll = .following } else { editor.moveToEnd() }
    case .pasteStart, .pasteEnd, .resize, .escape, .tab, .function: break
    default: edit(key)
    }
    keepCursorVisible()
    return []
  }

  private mutating func edit(_ key: Key) { Self.edit(key, in: &editor) }

  /// The help's keys as drawn (a screen reader's without the legend of glyphs), and the rows
  /// it may take: between the header and the footer.
  var helpKeys: [(String, String)] {
    HelpOverlay.drawn(
      options.presenter ? PresenterHelp.keys : HelpOverlay.keys, plain: options.screenReader)
  }
  var helpHeight: Int { rows - 3 }

  /// F1 or `?`: the help, from its first key.
  mutating func showHelp() {
    showsHelp = true
    helpScroll = 0
  }

  /// While the help shows, ↑ ↓ PgUp PgDn Home End and the wheel scroll it (on a short
  /// terminal its last keys are below the box). Returns whether `key` was one of them.
  private mutating func scrollHelp(_ key: Key) -> Bool {
    let count = helpKeys.count
    let shown = HelpOverlay.fitting(count, height: helpHeight, plain: options.screenReader)
    let page = max(1, shown - 1)
    let steps: Int
    switch key {
    case .up: steps = -1
    case .down: steps = 1
    case .wheelUp: steps = -3
    case .wheelDown: steps = 3
    case .pageUp: steps = -page
    case .pageDown: steps = page
    case .home: steps = -count
    case .end: steps = count
    default: return false
    }
    // From the place drawn: a resize since may have left less to scroll.
    let from = HelpOverlay.clamped(helpScroll, count: count, shown: shown)
    helpScroll = HelpOverlay.clamped(from + steps, count: count, shown: shown)
    return true
  }

  /// The line-editing keys, on the question line or the search line.
  static func edit(_ key: Key, in editor: inout LineEditor) {
    switch key {
    case .left, .control("b"): editor.moveLeft()
    case .right, .control("f"): editor.moveRight()
    case .control("a"): editor.moveToStart()
    case .control("e"): editor.moveToEnd()
    case .alt("b"), .alt("B"): editor.moveWordLeft()
    case .alt("f"), .alt("F"): editor.moveWordRight()
    case .backspace, .control("h"): editor.deleteBackward()
    case .delete: editor.deleteForward()
    case .control("u"): editor.deleteToStart()
    case .control("k"): editor.deleteToEnd()
    case .control("w"): editor.deleteWordBackward()
    default: break
    }
  }

  /// Pasted text goes in as typed, except that its line breaks (and tabs) become single
  /// spaces: a pasted paragraph is one question.
  private mutating func handlePaste(_ key: Key) -> [TerminalAction] {
    switch key {
    case .text(let text) where search != nil:
      // Pasted into the search line, it searches.
      search?.insert(Self.typeable(Self.oneLine(text)))
      filter = search?.text ?? ""
      refreshRoom(searchChanged: true)
    case .text(let text): editor.insert(Self.typeable(Self.oneLine(text)))
    // A lost end marker must not leave Enter disabled: Esc ends the paste.
    case .escape: pasting = false
    case .enter, .tab, .control("j"):
      if editor.characters.last != " " && !editor.isEmpty { editor.insert(" ") }
    case .control("c"):
      pasting = false
      return requestQuit()
    default: break
    }
    keepCursorVisible()
    return []
  }

  static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }

  /// Typed or pasted text without what the terminal would act on or cannot draw (bidi
  /// controls, unprintable characters): the input line shows exactly what is sent.
  static func typeable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: Sanitizer.needsEscaping) else { return text }
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: text.unicodeScalars.filter { !Sanitizer.needsEscaping($0) })
    return String(kept)
  }

  private mutating func submit() -> [TerminalAction] {
    let text = editor.text.trimmingSpaces()
    guard !text.isEmpty else { return [] }
    if text.count > options.maxLength {
      addNotice(
        Catalogue.format(
          tr("Too long: %1$d characters, at most %2$d. Shorten it and press Enter."), text.count,
          options.maxLength), kind: .error)
      return []
    }
    history.record(text)
    asksInFlight += 1
    editor = LineEditor()
    inputOffset = 0
    scroll = .following
    return [.ask(text)]
  }

  /// Ctrl-T: the most recently typed question the server refused goes out again.
  private mutating func retryLastFailed() -> [TerminalAction] {
    let failed = questions.last { if case .failed = $0.status { true } else { false } }
    guard let failed else {
      addNotice(tr("No refused question to ask again."), kind: .info)
      return []
    }
    return [.retry(failed.id)]
  }

  /// Ctrl-X: the most recently typed question the server refused is given up.
  private mutating func discardLastFailed() -> [TerminalAction] {
    let failed = questions.last { if case .failed = $0.status { true } else { false } }
    guard let failed else {
      addNotice(tr("No refused question to discard."), kind: .info)
      return []
    }
    return [.discard(failed.id)]
  }

  mutating func requestQuit() -> [TerminalAction] {
    guard state.pendingQuestions.isEmpty && asksInFlight == 0 && state.desk.pendingCount == 0
    else {
      confirmingQuit = true
      return []
    }
    return [.quit]
  }

  /// The confirmation line shown while `confirmingQuit`: the question first, so that a
  /// narrow terminal cuts the explanation rather than the question.
  package var quitQuestion: String {
    // TRANSLATORS: the quit questions: "y" is the key that answers yes in every
    // language, so "y/n" stays as it is.
    let actions = state.desk.pendingCount
    if actions > 0 {
      return Catalogue.format(
        trn(
          "Quit with %d action not sent? y/n (it will be lost)",
          "Quit with %d actions not sent? y/n (they will be lost)", actions), actions)
    }
    let count = state.pendingQuestions.count + asksInFlight
    guard count > 0 else { return tr("Everything is sent now. Quit? y/n") }
    let failed = state.counts.failed
    if !options.keepsQueuedQuestions {
      return Catalogue.format(
        trn(
          "Quit with %d question not sent? y/n (it will be lost)",
          "Quit with %d questions not sent? y/n (they will be lost)", count), count)
    }
    if failed > 0 {
      return Catalogue.format(
        trn(
          "Quit with %1$d question not sent (%2$d refused)? y/n (kept for the next time qna starts)",
          "Quit with %1$d questions not sent (%2$d refused)? y/n (kept for the next time qna starts)",
          count), count, failed)
    }
    return Catalogue.format(
      trn(
        "Quit with %d question not sent? y/n (it is kept and sent the next time qna starts)",
        "Quit with %d questions not sent? y/n (they are kept and sent the next time qna starts)",
        count), count)
  }
}
