#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The presenter's decisions about this attendee's own questions (extension `lifecycle`): in
/// review until approved, dismissed in words, answered with text.
extension QnAState {
  /// The server says where one of this attendee's questions is: news when it changed.
  mutating func updateLifecycle(
    _ token: UUID, state: QuestionState?, answer: String?, isPrivate: Bool? = nil,
    content: String? = nil
  ) -> [QnAEffect] {
    guard var question = questions[token] else { return [] }
    let before = question
    // Extension `moderation`: a presenter corrected its text; the asker sees the new one.
    if let content, !content.isEmpty {
      question.content = String(content.prefix(Self.maxEditedLength))
    }
    // Answered is the question's status; as a state it is public, as live is.
    if let state { question.state = state == .answered ? .live : state }
    if let answer { question.answer = String(answer.prefix(Self.maxAnswerLength)) }
    if let isPrivate { question.answerIsPrivate = isPrivate }
    // Unchanged, the room may still have lost what only the asker knows (a private answer
    // is in no delta): put it back.
    guard question != before else { return ownQuestionInRoom(question) }
    questions[token] = question
    var effects: [QnAEffect] = []
    if question.content != before.content {
      effects.append(
        notice(
          Message("The presenter edited your question: “%s”.", Self.excerpt(question.content)),
          kind: .info))
    }
    if question.state != before.state, let state = question.state {
      effects += stateNotice(question, state, was: before.state)
    }
    return effects + ownQuestionInRoom(question)
  }

  /// Words for the attendee when the presenter decided about their question.
  private mutating func stateNotice(
    _ question: Question, _ state: QuestionState, was before: QuestionState?
  ) -> [QnAEffect] {
    let excerpt = Self.excerpt(question.content)
    switch (before, state) {
    case (_, .dismissed):
      return [dismissedNotice(question.content)]
    case (.review?, .live), (.dismissed?, .live):
      return [notice(Message("Your question “%s” is now public.", excerpt), kind: .info)]
    default: return []
    }
  }

  private mutating func dismissedNotice(_ content: String) -> QnAEffect {
    notice(
      Message("The presenter dismissed your question “%s”.", Self.excerpt(content)), kind: .info)
  }

  /// The longest edited text kept: no server may grow a question past what any asks.
  static let maxEditedLength = 10_000

  static func excerpt(_ text: String) -> String {
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
    return line.count > 40 ? String(line.prefix(39)) + "…" : line
  }

  /// This attendee's own question as the room shows it to them: one in review or dismissed
  /// is in the room for its asker only, so it is kept there from what the client knows.
  mutating func ownQuestionInRoom(_ question: Question) -> [QnAEffect] {
    guard room.isAvailable, let id = question.serverID, let createdAt = question.createdAt
    else { return [] }
    var entry =
      room.questions[id]
      ?? RoomQuestion(
        id: id, content: question.content, votes: 0, answered: false, createdAt: createdAt)
    let wasThere = room.questions[id] != nil
    entry.mine = true
    entry.answered = entry.answered || question.status == .answered
    if let state = question.state, state != .live || entry.lifecycle == .review {
      entry.state = (state == .live && entry.answered ? QuestionState.answered : state).rawValue
    }
    if let answer = question.answer {
      entry.answer = answer
      entry.isPrivate = question.answerIsPrivate
    }
    // A public question the room has not shown yet arrives with the next delta.
    guard wasThere || !entry.lifecycle.isPublic else { return [] }
    guard room.questions[id] != entry else { return [] }
    room.questions[id] = entry
    return [.report(.roomQuestion(self.entry(for: entry), removed: false))]
  }

  /// A question left the attendee's room: if it was theirs, the presenter dismissed it (the
  /// only way a question leaves); it stays, marked so, for its asker.
  mutating func ownQuestionDismissed(_ id: UUID) -> [QnAEffect]? {
    guard serverExtensions.contains(ProtocolExtension.lifecycle) else { return nil }
    if let token = tokenByServerID[id] {
      return updateLifecycle(token, state: .dismissed, answer: nil)
    }
    // Asked in an earlier run: known from a snapshot only.
    guard var entry = room.questions[id], entry.mine == true else { return nil }
    guard entry.lifecycle != .dismissed else { return [] }
    entry.state = QuestionState.dismissed.rawValue
    room.questions[id] = entry
    return [
      dismissedNotice(entry.content),
      .report(.roomQuestion(self.entry(for: entry), removed: false)),
    ]
  }
}
