import Foundation
import QnA
import QnAStore

/// Tells a question's asker, if connected to this instance, what became of it: a presenter's
/// decision (to a client of the room) or the answer.
package struct AskerNotices: Sendable {
  package let room: SessionRoom

  package init(room: SessionRoom) { self.room = room }

  /// Whether an action is news for the question's asker: a decision about it, or an answer.
  package static func news(_ action: PresenterActionKind) -> RoomChange? {
    switch action {
    case .approve, .dismiss, .restore: .state
    case .answer: .answered
    case .edit: .edited
    default: nil
    }
  }

  /// Another instance changed a question: its asker hears of it if connected here. A read
  /// that fails is tried again a second later, a few times (a client of the room also hears
  /// an answer from the room's state, which the fan-out never drops).
  package func tellAsker(_ id: UUID, of kind: RoomChange) async {
    for attempt in 1...Self.attempts {
      do {
        guard let question = try await room.store.question(id: id) else { return }
        await tell(question, of: kind)
        return
      } catch {
        room.logger.error(
          "could not read a question another instance changed (try \(attempt)): \(error)")
        if attempt < Self.attempts { try? await Task.sleep(for: RoomReplies.storageRetry) }
      }
    }
  }

  static let attempts = 5

  /// The asker hears of a decision (a client of the room knows this repeat), whether or not
  /// the room ever saw the question, or of the answer.
  package func tell(_ question: StoredQuestion, of kind: RoomChange) async {
    guard let asker = room.sockets.connection(question.askedFrom) else { return }
    let extensions = room.settings.extensions
    switch kind {
    case .state where asker.attendee != nil:
      let message =
        question.state == .dismissed
        ? "The presenter dismissed your question." : "Your question is public now."
      room.send(.questionResponse(Self.restated(question, message: message)), to: asker)
    case .edited where asker.attendee != nil:
      room.send(
        .questionResponse(
          Self.restated(question, message: "The presenter edited your question.")),
        to: asker)
    case .answered:
      // Queued before the caller's HTTP response, as the existing back ends do; a slow
      // attendee's socket never holds the presenter up.
      let answer = QuestionAnswer(
        questionId: question.id, text: extensions ? question.answer : nil,
        isPrivate: extensions && question.answer != nil ? question.answerPrivate : nil)
      room.send(.questionAnswer(answer), to: asker)
      room.logger.info("answered \(question.id), sent to \(asker.id)")
    default: break
    }
  }

  /// A stored question as its asker's client learns it again (after a resume, or a
  /// presenter's decision): its state and answer now.
  package static func restated(_ question: StoredQuestion, message: String) -> QuestionResponse {
    QuestionResponse(
      success: true, message: message, id: question.id, answered: question.answered,
      content: question.content, createdAt: question.createdAt, token: question.token,
      state: question.publicState, answer: question.answer,
      isPrivate: question.answer != nil ? question.answerPrivate : nil)
  }
}
