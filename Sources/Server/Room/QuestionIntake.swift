import Foundation
import QnA
import QnAStore

/// A new question, from its checks to its stored reply: what no retry can mend is refused
/// for good, a resend of a stored question skips the rate limit, and a failed write asks the
/// client to try again.
package struct QuestionIntake: Sendable {
  package let room: SessionRoom

  package init(room: SessionRoom) { self.room = room }

  package func respond(to question: NewQuestion, from connection: SocketConnection) async
    -> QuestionResponse
  {
    let settings = room.settings
    let token = settings.extensions ? question.token : nil
    func refuse(_ reason: String, retryAfter: Duration? = nil) -> QuestionResponse {
      room.logger.info("refused from \(connection.id): \(reason)")
      // The content matches a refusal to its question for clients without tokens; with a
      // token it would only make a flood of refusals 16 KiB each.
      return QuestionResponse(
        success: false, message: reason, content: token == nil ? question.content : nil,
        token: token,
        retryAfter: settings.extensions ? retryAfter.map(RoomReplies.seconds) : nil)
    }
    if let problem = Self.problem(with: question, from: connection, settings: settings) {
      return refuse(problem)
    }
    // A resend of a stored question is not a new question: it skips the rate limit, and
    // pays in lookups instead.
    var isResend = false
    if let token {
      await room.pace(1, for: connection)
      if case .some(.some(let stored)) = try? await room.store.question(token: token) {
        isResend = true
        // Sent again on the connection it is asked from already: nothing to write, so no
        // turn on the session's lock (a socket flooding resends slows only itself).
        if stored.askedFrom == connection.id {
          return Self.created(stored, token: token, settings: settings)
        }
      }
    }
    if !isResend, let wait = room.people.takeQuestion(connection, now: room.environment.uptime()) {
      return refuse(RoomReplies.rateLimited, retryAfter: wait)
    }
    // A session that admits by ticket (extension `tickets`) takes questions from identities
    // only: a socket without one asks again once its ticket made it one.
    if !isResend, connection.attendee == nil, !connection.isPresenter,
      (try? await room.admitsByTicket()) == true
    {
      room.people.giveBackQuestion(connection, now: room.environment.uptime())
      return refuse(RoomReplies.ticketNeeded, retryAfter: RoomReplies.storageRetry)
    }
    if let refusal = room.hooks.refusal(question.content) { return refuse(refusal) }
    let stored: StoredQuestion
    do {
      // A resend is the stored question: the filter judged it when it first came.
      let screened =
        isResend
        ? (matches: [], mode: FilterMode.review)
        : try await room.wordFilters.screen(question.content, asker: connection.attendee)
      if !screened.matches.isEmpty, screened.mode == .refuse {
        room.metrics.questionsFiltered.increment()
        return refuse(RoomReplies.filtered)
      }
      let record = StoredQuestion(
        id: room.environment.makeID(), content: question.content, askedFrom: connection.id,
        createdAt: room.environment.now(), token: token, attendee: connection.attendee,
        state: settings.moderation || !screened.matches.isEmpty ? .review : .live,
        flagged: screened.matches, label: settings.extensions ? question.label : nil)
      if !screened.matches.isEmpty { room.metrics.questionsFiltered.increment() }
      let result = try await room.store.insert(record)
      stored = result.question
      if result.inserted {
        room.metrics.questions.increment()
        room.logger.info(
          "question \(stored.id) from \(connection.id): \(stored.content.count) chars")
        room.hooks.questionStored(stored.id, room)
      } else {
        room.logger.info("question \(stored.id) sent again (token \(token?.uuidString ?? "-"))")
      }
    } catch .sessionClosed(let reason), .refused(let reason) {
      return refuse(reason)
    } catch {
      // Busy or failing storage is not the question's fault: the client tries again, and
      // the try did not spend the attendee's budget.
      room.logger.error("could not store a question: \(error)")
      if !isResend { room.people.giveBackQuestion(connection, now: room.environment.uptime()) }
      return refuse(RoomReplies.failedSave, retryAfter: RoomReplies.storageRetry)
    }
    return Self.created(stored, token: token, settings: settings)
  }

  /// The answer to a question stored (now, or when it was first sent).
  static func created(_ stored: StoredQuestion, token: UUID?, settings: RoomSettings)
    -> QuestionResponse
  {
    QuestionResponse(
      success: true, message: stored.state == .review ? RoomReplies.inReview : RoomReplies.created,
      id: stored.id, answered: stored.answered, content: stored.content,
      createdAt: stored.createdAt, token: token,
      state: settings.extensions ? stored.publicState : nil,
      answer: settings.extensions ? stored.answer : nil)
  }

  /// Why a question can never be stored as sent, in words; `nil` when it may be.
  package static func problem(
    with question: NewQuestion, from connection: SocketConnection, settings: RoomSettings
  ) -> String? {
    guard question.id == connection.id else {
      return "The id in newQuestion is not this connection's id."
    }
    let trimmed = question.content.trimmingCharacters(in: .whitespacesAndNewlines)
    switch QuestionText.problem(with: trimmed, maxLength: settings.maxQuestionLength) {
    case .empty?: return "The question is empty."
    case .tooLong?:
      return "The question is too long: at most \(settings.maxQuestionLength) characters."
    case .overloadedCharacter?:
      return
        "The question has a character with more than \(QuestionText.maxScalarsPerCharacter) marks."
    case nil: break
    }
    return question.label.flatMap(labelProblem)
  }

  /// Why a question's label can be no session's, in words: more than `SessionLabels.maxLength`
  /// characters, or `SessionLabels.maxBytes` bytes (whether the session has it, the store
  /// says).
  package static func labelProblem(_ label: String) -> String? {
    label.count > SessionLabels.maxLength || label.utf8.count > SessionLabels.maxBytes
      ? "A label has at most \(SessionLabels.maxLength) characters." : nil
  }
}
