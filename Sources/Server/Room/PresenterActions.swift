import Foundation
import QnA
import QnAStore

/// A presenter's action, from a socket, the page or the API: stored exactly once per token,
/// then broadcast to the room at once and told to the question's asker.
package struct PresenterActions: Sendable {
  package let room: SessionRoom

  /// The longest answer text a presenter may give.
  package static let maxAnswerLength = 10_000
  /// An answer's text as JSON, at most: with the longest question beside it, a question of
  /// the room stays far below the 64 KiB a client reads (so no answer can shut clients out).
  package static let maxAnswerBytes = 16 * 1024

  package init(room: SessionRoom) { self.room = room }

  /// The asker is read from the row the write returns: a resume that moved the question is a
  /// write too, so whichever came first, the attendee hears of the answer (here, or in the
  /// resume's reply).
  package func perform(
    _ action: PresenterActionKind, on id: UUID, text: String?, isPrivate: Bool, token: UUID
  ) async throws(StoreError) -> QuestionStore.ActionOutcome? {
    guard
      let outcome = try await room.store.perform(
        action, on: id, text: text, isPrivate: isPrivate, token: token,
        at: room.environment.now())
    else { return nil }
    guard outcome.changed else { return outcome }
    // The asker's next question meets the filter with its asker's new standing.
    if action == .silence || action == .unsilence { room.wordFilters.invalidate() }
    if action == .answer { room.metrics.answers.increment() }
    room.logger.info("\(action.rawValue) \(id)")
    if let kind = AskerNotices.news(action) {
      await AskerNotices(room: room).tell(outcome.question, of: kind)
    }
    return outcome
  }

  /// A presenter's action over the socket: only on a presenter's connection.
  package func respond(to action: PresenterAction, from connection: SocketConnection) async
    -> PresenterActionResponse
  {
    func refuse(_ message: String, retryAfter: Duration? = nil) -> PresenterActionResponse {
      PresenterActionResponse(
        token: action.token, question: action.question, success: false, message: message,
        retryAfter: retryAfter.map(RoomReplies.seconds))
    }
    guard connection.isPresenter else {
      room.logger.warning("refused a presenter action from attendee \(connection.id)")
      return refuse("Only a presenter's connection may act on questions.")
    }
    guard action.id == connection.id else {
      return refuse("The id in presenterAction is not this connection's id.")
    }
    guard let kind = action.kind else { return refuse("There is no such action.") }
    if kind.isRoomAction {
      return await respond(toRoomAction: kind, action, refuse: refuse)
    }
    guard let question = action.question else {
      return refuse("A \(kind.rawValue) names its question.")
    }
    // An edit's text is trimmed as a question's is on the API.
    let text =
      kind == .edit ? action.text?.trimmingCharacters(in: .whitespacesAndNewlines) : action.text
    if let problem =
      switch kind {
      case .edit: Self.editProblem(text, maxLength: room.settings.maxQuestionLength)
      case .relabel: text.flatMap(QuestionIntake.labelProblem)
      default: Self.answerProblem(text)
      }
    {
      return refuse(problem)
    }
    let outcome: QuestionStore.ActionOutcome?
    do {
      outcome = try await perform(
        kind, on: question, text: text, isPrivate: action.isPrivate == true, token: action.token)
    } catch {
      room.logger.error("could not store an action: \(error)")
      return refuse(RoomReplies.failedSave, retryAfter: RoomReplies.storageRetry)
    }
    guard let outcome else { return refuse("There is no such question.") }
    return PresenterActionResponse(
      token: action.token, question: action.question, success: outcome.refusal == nil,
      message: outcome.refusal)
  }

  /// Why an edit's text is refused, in words, or nil: a question's text, as any asked.
  package static func editProblem(_ text: String?, maxLength: Int) -> String? {
    guard let text else { return "An edit gives the question's new text." }
    switch QuestionText.problem(with: text, maxLength: maxLength) {
    case .empty?: return "The question's new text is empty."
    case .tooLong?: return "The question's new text is too long: at most \(maxLength) characters."
    case .overloadedCharacter?:
      return
        "The question's new text has a character with more than \(QuestionText.maxScalarsPerCharacter) marks."
    case nil: return nil
    }
  }

  /// Why an answer's text is refused, in words, or nil when it may be given.
  package static func answerProblem(_ text: String?) -> String? {
    guard let text else { return nil }
    if text.allSatisfy(\.isWhitespace) {
      return "The answer's text is empty: leave it out to mark the question answered without one."
    }
    if text.count > maxAnswerLength {
      return "The answer is too long: at most \(maxAnswerLength) characters."
    }
    if WireCodec.encodedSize(ofString: text) > maxAnswerBytes {
      return "The answer is too long: at most \(maxAnswerBytes / 1024) KiB as JSON."
    }
    return nil
  }
}
