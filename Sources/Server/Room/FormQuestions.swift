import Foundation
import QnA
import QnAStore

/// A question posted by the attendee page's form, where scripts are off: no socket, so no
/// identity to prove. Each new question is asked by a new anonymous attendee (named if the
/// form says so) who can neither vote nor be counted, so the form's lane is its own: the
/// address's form questions (`formQuestions`), not the new identities sockets pay for; the
/// form's token makes a resubmitted form ask once.
package struct FormQuestions: Sendable {
  package let room: SessionRoom

  package init(room: SessionRoom) { self.room = room }

  /// Why a posted question was not stored, for the page to say in its language.
  package enum Refusal: Error, Equatable {
    case empty
    case tooLong(limit: Int)
    case overloadedCharacter
    /// The session takes no new questions.
    case closed
    /// The address's budget is spent, or the store is busy: the same form may be sent again.
    case tryAgain(after: Duration)
    /// The server's mock refused it (tests).
    case refused(String)
    /// The session's word filter refuses it.
    case filtered
  }

  /// The key of the form's bucket for addresses the budgets do not tell apart.
  static let unattributed = "-"

  /// Stores the question once per `token`; `address`: the budgets' key (`nil`: one the
  /// budget for new attendees does not count, which shares one bucket of form questions);
  /// `open`: whether the session takes questions (a closed one spends no budget).
  package func ask(
    content: String, name: String?, token: UUID, address: String?, open: Bool,
    label: String? = nil
  ) async -> Result<StoredQuestion, Refusal> {
    let settings = room.settings
    let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
    switch QuestionText.problem(with: trimmed, maxLength: settings.maxQuestionLength) {
    case .empty?: return .failure(.empty)
    case .tooLong?: return .failure(.tooLong(limit: settings.maxQuestionLength))
    case .overloadedCharacter?: return .failure(.overloadedCharacter)
    case nil: break
    }
    let label = settings.extensions ? label.flatMap { $0.isEmpty ? nil : $0 } : nil
    if let problem = label.flatMap(QuestionIntake.labelProblem) {
      return .failure(.refused(problem))
    }
    do {
      if let stored = try await room.store.question(token: token) { return .success(stored) }
      guard open else { return .failure(.closed) }
      // A session that admits by ticket (extension `tickets`) takes no anonymous questions.
      if try await room.admitsByTicket() { return .failure(.refused(RoomReplies.formNeedsTicket)) }
      let now = room.environment.uptime()
      if let wait = room.formQuestions.take(address ?? Self.unattributed, now: now) {
        return .failure(.tryAgain(after: wait))
      }
      if let refusal = room.hooks.refusal(content) { return .failure(.refused(refusal)) }
      let screened = try await room.wordFilters.screen(content)
      if !screened.matches.isEmpty { room.metrics.questionsFiltered.increment() }
      if !screened.matches.isEmpty, screened.mode == .refuse { return .failure(.filtered) }
      let attendee = room.environment.makeID()
      let claim = try await room.store.claim(
        attendee: attendee, credential: nil, mint: room.environment.makeID(),
        name: RoomJoins.name(name), at: room.environment.now())
      guard case .issued = claim else {
        return .failure(.tryAgain(after: RoomReplies.storageRetry))
      }
      room.metrics.attendeesIssued.increment()
      let record = StoredQuestion(
        id: room.environment.makeID(), content: content, askedFrom: room.environment.makeID(),
        createdAt: room.environment.now(), token: token, attendee: attendee,
        state: settings.moderation || !screened.matches.isEmpty ? .review : .live,
        flagged: screened.matches, label: label)
      let result = try await room.store.insert(record)
      if result.inserted {
        room.metrics.questions.increment()
        room.logger.info("question \(result.question.id) from the page's form")
        room.hooks.questionStored(result.question.id, room)
      }
      return .success(result.question)
    } catch .sessionClosed {
      return .failure(.closed)
    } catch .refused(let reason) {
      return .failure(.refused(reason))
    } catch {
      room.logger.error("could not store a question from the form: \(error)")
      return .failure(.tryAgain(after: RoomReplies.storageRetry))
    }
  }
}
