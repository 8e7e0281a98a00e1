import Foundation
import QnA

/// The room's and the presenters' rules, once for every database: each store reads the rows,
/// asks these what a vote or an action does, and writes the result in its own SQL, in the
/// same transaction.
package enum StoreRules {
  package enum VoteStep: Equatable {
    case add, remove, unchanged
    case refuse(String)
  }

  /// What a vote does to `record`, given whether the attendee's vote is there already: one
  /// vote per attendee per question, none for one's own question nor for an answered one
  /// (taking one back is always allowed).
  package static func vote(on record: VoteTarget, by attendee: UUID, up: Bool, existing: Bool)
    -> VoteStep
  {
    if up, !existing {
      if record.attendee == attendee.text {
        return .refuse("That question is yours: votes are for the others' questions.")
      }
      if record.answered { return .refuse("That question has been answered.") }
      return .add
    }
    if !up, existing { return .remove }
    return .unchanged
  }

  /// Whether `attendee` may have `record`'s answers sent to it, having shown its token: a
  /// question asked after a `join` is its attendee's only; one asked without (an existing
  /// client) is whoever's holds the token.
  package static func mayClaim(_ record: QuestionRecord, _ attendee: UUID?) -> Bool {
    record.attendee == nil || record.attendee == attendee?.text
  }

  /// A question sent again under a token the database has, as `existing`: refused when the
  /// token is another session's (a token is the asker's secret: shown to another session it
  /// names nothing there); otherwise the row to write, now asked from the sender's
  /// connection, or `nil` when nothing changes (a resend from the same connection: no
  /// write, no fsync). A question an attendee asked stays that attendee's, whoever else
  /// learns its token.
  package static func resend(
    _ question: StoredQuestion, of existing: QuestionRecord, session: Int64
  ) throws(StoreError) -> QuestionRecord? {
    guard existing.session == session else {
      throw .sessionClosed("That token belongs to a question elsewhere.")
    }
    guard existing.askedFrom != question.askedFrom.text,
      mayClaim(existing, question.attendee)
    else { return nil }
    var moved = existing
    moved.askedFrom = question.askedFrom.text
    return moved
  }

  /// What a `resume` moves to `connection`: the questions found by id that `attendee`
  /// asked, and those found by token that it may claim, each once, oldest first; `changed`
  /// says which rows must be written.
  package static func resumed(
    byID: [QuestionRecord], byToken: [QuestionRecord], to connection: UUID, attendee: UUID?
  ) -> (questions: [StoredQuestion], changed: [QuestionRecord]) {
    var seen: Set<String> = []
    var moved: [StoredQuestion] = []
    var changed: [QuestionRecord] = []
    let claimed =
      byID.filter { $0.attendee != nil && $0.attendee == attendee?.text }
      + byToken.filter { mayClaim($0, attendee) }
    for var record in claimed where seen.insert(record.id).inserted {
      if record.askedFrom != connection.text {
        record.askedFrom = connection.text
        changed.append(record)
      }
      moved.append(record.question)
    }
    return (moved.sorted { $0.createdAt < $1.createdAt }, changed)
  }

  /// Why a token seen before refuses `action` on `id`, if it does: the same action again is
  /// done already; another one under the same token is a client reusing tokens, which would
  /// otherwise be told of a success that never happened.
  package static func repeatRefusal(
    seenQuestion: String, seenAction: String, action: PresenterActionKind, on id: UUID
  ) -> String? {
    seenQuestion == id.text && seenAction == action.rawValue
      ? nil : "That token was used for another action."
  }

  /// What a presenter's action does.
  package struct ActionStep {
    /// The question as it is after the action.
    package var record: QuestionRecord
    /// Whether its row changed (then it is written and logged).
    package var changed: Bool
    /// The question being answered from now on, when that changes.
    package var highlight: UUID??
    /// Whether the question's asker is silenced from now on, when the action says so.
    package var silence: Bool?
    /// The "next up" queue from now on, when it changes.
    package var queue: [UUID]?
  }

  /// Applies `action` to `record`, with `highlighted` the question being answered now; a
  /// refusal, in words, when the action does not apply.
  package static func perform(
    _ action: PresenterActionKind, on record: QuestionRecord, id: UUID, highlighted: UUID?,
    text: String?, isPrivate: Bool, at time: Date, queue: [UUID] = [], labels: [String] = []
  ) -> Result<ActionStep, ActionRefusal> {
    var record = record
    let before = record
    var highlight: UUID?? = .none
    var silence: Bool?
    switch action {
    case .approve:
      if record.state == QuestionState.dismissed.rawValue {
        return .failure(ActionRefusal("That question was dismissed: restore it instead."))
      }
      record.state = QuestionState.live.rawValue
      record.published = true
    case .dismiss:
      record.state = QuestionState.dismissed.rawValue
      if highlighted == id { highlight = .some(nil) }
    case .restore:
      // Back where it was dismissed from: one never approved waits in review again.
      if record.state == QuestionState.dismissed.rawValue {
        record.state = (record.published ? QuestionState.live : .review).rawValue
      }
    case .highlight:
      guard record.state == QuestionState.live.rawValue else {
        return .failure(
          ActionRefusal("Only a question the room sees can be the one being answered."))
      }
      guard !record.answered else {
        return .failure(ActionRefusal("That question is answered already: highlight an open one."))
      }
      if highlighted != id { highlight = .some(id) }
    case .unhighlight:
      if highlighted == id { highlight = .some(nil) }
    case .answer:
      record.answered = true
      if before.answeredAt == nil || !before.answered {
        record.answeredAt = time.timeIntervalSinceReferenceDate
      }
      if let text {
        record.answer = text
        record.answerPrivate = isPrivate
      }
      if highlighted == id { highlight = .some(nil) }
    case .edit:
      guard let text else {
        return .failure(ActionRefusal("An edit gives the question's new text."))
      }
      // The text as asked is kept once, whatever the edits after it.
      if record.original == nil, text != record.content { record.original = record.content }
      record.content = text
    case .silence, .unsilence:
      guard record.attendee != nil else {
        return .failure(
          ActionRefusal(
            "That question's asker cannot be told apart from others (asked without an identity)."
          ))
      }
      silence = action == .silence
    case .star, .unstar: record.starred = action == .star
    case .enqueue, .dequeue, .moveUp, .moveDown, .moveToTop: break
    case .relabel:
      switch Self.relabel(text, labels: labels) {
      case .failure(let refusal): return .failure(refusal)
      case .success(let label): record.label = label
      }
    case .announce, .filterAdd, .filterRemove, .next, .showQueue, .hideQueue, .labelAdd,
      .labelRemove:
      return .failure(ActionRefusal("That action is on the room, not on a question."))
    }
    let newQueue: [UUID]?
    switch Self.queue(after: action, on: id, record: record, queue: queue) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let changedQueue): newQueue = changedQueue
    }
    let changed =
      record.state != before.state || record.answered != before.answered
      || record.answer != before.answer || record.answerPrivate != before.answerPrivate
      || record.content != before.content || record.starred != before.starred
      || record.label != before.label
    return .success(
      ActionStep(
        record: record, changed: changed, highlight: highlight, silence: silence,
        queue: newQueue))
  }

  package struct ActionRefusal: Error {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
  }

  /// The log kind an action's row change is recorded as.
  package static func logKind(of action: PresenterActionKind) -> RoomChange {
    switch action {
    case .answer: .answered
    case .edit: .edited
    // A star or a label: rooms re-read the question, its asker is told nothing.
    case .star, .unstar, .relabel: .marked
    default: .state
    }
  }

  /// The text a transition keeps: an answer's, an edit's, and the label a relabel left on
  /// `record` (as the session spells it, not as it was typed).
  package static func transitionText(
    of action: PresenterActionKind, _ text: String?, record: QuestionRecord
  ) -> String? {
    switch action {
    case .answer, .edit: text
    case .relabel: record.label
    default: nil
    }
  }

  /// The questions a log's rows name, in order, each once; those whose every row is a vote
  /// (only their counts changed); and whether the question being answered changed among them.
  package static func changed(in rows: [(question: String?, kind: String)]) -> (
    ids: [String], countsOnly: Set<String>, highlight: Bool, announcement: Bool, queue: Bool,
    labels: Bool
  ) {
    var changed: [String] = []
    var seen: Set<String> = []
    var other: Set<String> = []
    var highlight = false
    var announcement = false
    var queue = false
    var labels = false
    for row in rows {
      if row.kind == RoomChange.highlight.rawValue {
        highlight = true
      } else if row.kind == RoomChange.announcement.rawValue {
        announcement = true
      } else if row.kind == RoomChange.queue.rawValue {
        queue = true
      } else if row.kind == RoomChange.labels.rawValue {
        labels = true
      } else if row.kind == RoomChange.poll.rawValue || row.kind == RoomChange.pollResults.rawValue
      {
        continue
      } else if let id = row.question {
        if seen.insert(id).inserted { changed.append(id) }
        if row.kind != RoomChange.votes.rawValue { other.insert(id) }
      }
    }
    return (changed, seen.subtracting(other), highlight, announcement, queue, labels)
  }

  /// The polls a log's rows name, in order, each once, and those whose every row is a change
  /// of results (their answers came).
  package static func changedPolls(in rows: [(question: String?, kind: String)]) -> (
    ids: [String], resultsOnly: Set<String>
  ) {
    var ids: [String] = []
    var seen: Set<String> = []
    var whole: Set<String> = []
    for row in rows {
      guard let id = row.question else { continue }
      if row.kind == RoomChange.poll.rawValue {
        whole.insert(id)
      } else if row.kind != RoomChange.pollResults.rawValue {
        continue
      }
      if seen.insert(id).inserted { ids.append(id) }
    }
    return (ids, seen.subtracting(whole))
  }

  /// The delta for what changed after `after` up to `upTo`, from the rows of the questions
  /// the log named. Attendees' deltas leave out questions in review, name dismissed ones as
  /// `removed` (their askers keep them, marked so) and carry only public answers; presenters'
  /// carry all.
  package static func delta(
    after: Int, upTo: Int, named ids: [String], countsOnly: Set<String> = [],
    rows: [QuestionRecord], names: [UUID: String], highlight: HighlightChange?,
    announcement: Announcement? = nil, nextUp: NextUp? = nil, labels: [String]? = nil,
    presenter: Bool
  ) -> RoomChanges {
    let found = Set(rows.map(\.id))
    let shown = rows.filter { presenter || $0.question.publicState.isPublic }
      .sorted { ($0.createdAt, $0.rowid ?? 0) < ($1.createdAt, $1.rowid ?? 0) }
    // Removed for attendees: a dismissed question the room once saw, never one it did not.
    let dismissed =
      presenter
      ? []
      : rows.filter { $0.published && $0.state == QuestionState.dismissed.rawValue }
        .compactMap { UUID(text: $0.id) }
    let delta = RoomDelta(
      from: after + 1, to: upTo,
      questions: shown.map { $0.roomQuestion(presenter: presenter, asker: false, names: names) },
      removed: (ids.filter { !found.contains($0) }.compactMap(UUID.init(text:))
        + dismissed).nilIfEmpty,
      highlight: highlight, announcement: announcement, nextUp: nextUp, labels: labels)
    let counted = shown.filter { countsOnly.contains($0.id) && $0.rowid != nil }
    return RoomChanges(
      delta: delta, countsOnly: Set(counted.compactMap { UUID(text: $0.id) }))
  }

  /// The whole room for one attendee, from every question's row, oldest first: an attendee
  /// sees the questions in review or dismissed that they asked, and no others; a presenter
  /// sees every question, with its asker's name.
  package static func room(
    _ rows: [QuestionRecord], for attendee: UUID?, voted: Set<String>, names: [UUID: String],
    presenter: Bool
  ) -> [RoomQuestion] {
    rows.compactMap { record -> RoomQuestion? in
      let stored = record.question
      let mine = attendee != nil && stored.attendee == attendee
      guard presenter || mine || stored.publicState.isPublic else { return nil }
      var question = record.roomQuestion(presenter: presenter, asker: mine, names: names)
      question.mine = mine
      question.voted = voted.contains(record.id)
      return question
    }
  }
}

/// What a row of the room's log records; `session` is only ever announced, never logged: the
/// session's row changed (closed, reopened or deleted).
package enum RoomChange: String, Sendable {
  case added, answered, votes, highlight, removed, state, session
  /// The room's banner was set or cleared (extension `announcements`).
  case announcement
  /// Only announced, never logged: the session's word filter or its silenced askers changed
  /// (nothing any attendee sees).
  case filter
  /// A presenter corrected a question's text.
  case edited
  /// The "next up" queue changed, or whether the room sees it (extension `queue`).
  case queue
  /// The session's labels changed (extension `labels`).
  case labels
  /// A presenter's mark on a question (a star, a label): news for rooms, not for its asker.
  case marked
  /// A poll was made, changed, opened, closed, shown, hidden, reset or deleted (extension
  /// `polls`); its id is the log row's `question`.
  case poll
  /// A poll's results moved: its answers came or changed.
  case pollResults
}
