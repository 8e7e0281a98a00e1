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

/// Screen-reader mode (`--screen-reader`): a screen reader speaks, and a braille display
/// shows, whatever the terminal writes; so nothing is written that is not news. What happens
/// is announced in one footer line (F3 puts the cursor on it) that stays until the next
/// announcement; the room is redrawn when the reader presses a key, or when the change is
/// the reader's own doing, never under the cursor during a vote storm.
extension TerminalModel {
  /// The announcement of one state update: every new notice of the engine's, a question of
  /// the reader's answered, the question now being answered, questions newly in review for
  /// a presenter; all in one line, so that none is lost to the next.
  mutating func announceChanges(from before: QnAState, questionsBefore: [Question]) {
    if case .waitingToRetry(let at, _, _) = state.connection, retrySaid?.at != at {
      retrySaid = (at, DurationValue.wholeSeconds(max(.zero, at - now), roundingUp: true))
    }
    var lines = state.notices.filter { !before.notices.contains($0) }.map {
      Sanitizer.forScreen(Catalogue.localized($0))
    }
    let isError = state.notices.contains { !before.notices.contains($0) && $0.kind == .error }
    let answeredBefore = Set(questionsBefore.filter { $0.status == .answered }.map(\.id))
    for question in questions
    where question.status == .answered && !answeredBefore.contains(question.id) {
      let excerpt = Self.excerpt(question.content)
      lines.append(
        question.answer.map {
          Catalogue.format(
            tr("Your question “%1$s” was answered: %2$s"), excerpt, Sanitizer.forScreen($0))
        } ?? Catalogue.format(tr("Your question “%s” was answered."), excerpt))
    }
    if let answering = state.nowAnswering, answering.id != before.room.highlighted {
      lines.append(
        Catalogue.format(
          answering.mine ? tr("Now answering your question: %s") : tr("Now answering: %s"),
          Self.excerpt(answering.question.content)))
    }
    if options.presenter { lines += newInReview(from: before) }
    lines += connectionNews(from: before)
    guard !lines.isEmpty else { return }
    announcement = Announcement(text: lines.joined(separator: " · "), isError: isError)
  }

  /// The link lost or back: said once each (the header has the details).
  private mutating func connectionNews(from before: QnAState) -> [String] {
    let (was, isReady) = (before.connection.isReady, state.connection.isReady)
    if isReady, !was {
      defer { hasConnected = true }
      return hasConnected ? [tr("Connected again.")] : []
    }
    guard was, !isReady else { return [] }
    if case .waitingToRetry = state.connection, let seconds = retrySaid?.seconds {
      return [Catalogue.format(tr("Connection lost: reconnecting in %d s."), seconds)]
    }
    return [tr("Connection lost.")]
  }

  private func newInReview(from before: QnAState) -> [String] {
    // The first room snapshot is not news.
    guard before.room.seq != nil else { return [] }
    let fresh = state.room.questions.values.filter {
      $0.lifecycle == .review && before.room.questions[$0.id]?.lifecycle != .review
    }
    if fresh.count == 1, let question = fresh.first {
      return [Catalogue.format(tr("New question in review: %s"), Self.excerpt(question.content))]
    }
    guard !fresh.isEmpty else { return [] }
    return [
      Catalogue.format(
        trn("%d new question in review", "%d new questions in review", fresh.count), fresh.count)
    ]
  }

  /// The room after a state: drawn again at once when the list was empty or the change is
  /// the reader's own; otherwise kept as it is (and the footer says so) until a key.
  mutating func refreshRoomForReader(from before: QnAState) {
    let shown = (roomEntries, selection, tabCounts, roomVoted, roomSize)
    refreshRoom()
    let ownDoing =
      Self.ownMarks(shown.0) != Self.ownMarks(roomEntries)
      || before.desk.queue.map(\.question) != state.desk.queue.map(\.question)
    guard !shown.0.isEmpty, roomEntries != shown.0, !ownDoing else {
      roomIsStale = false
      return
    }
    (roomEntries, selection, tabCounts, roomVoted, roomSize) = shown
    roomIsStale = true
  }

  /// A key: the room as it is now, before the key acts on it. Returns whether the selected
  /// question left the list meanwhile: the selection is then on one the reader has not
  /// heard, and the key only shows it.
  mutating func catchUpBeforeKey() -> Bool {
    guard roomIsStale else { return false }
    roomIsStale = false
    let selected = selection?.id
    refreshRoom()
    return selected != nil && selection?.id != selected
  }

  /// What of the room is the reader's own doing: their questions (and whether answered),
  /// their votes, and votes not yet confirmed.
  static func ownMarks(_ entries: [RoomEntry]) -> [UUID: [Bool]] {
    var marks: [UUID: [Bool]] = [:]
    for entry in entries where entry.mine || entry.voted || entry.votePending {
      marks[entry.id] = [entry.mine, entry.voted, entry.votePending, entry.question.answered]
    }
    return marks
  }

  /// A question's first words, for an announcement.
  static func excerpt(_ text: String) -> String {
    let clean = Sanitizer.forScreen(text)
    return clean.count > 60 ? String(clean.prefix(59)) + "…" : clean
  }
}

/// Screen-reader mode's footer line: the latest announcement, until the next one.
public struct Announcement: Sendable, Equatable {
  public var text: String
  public var isError: Bool
}

extension ConnectionStatus {
  var isReady: Bool { if case .ready = self { true } else { false } }
}
