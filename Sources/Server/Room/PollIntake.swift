import Foundation
import QnA
import QnAStore

/// Extension `polls`: takes in attendees' answers, one per poll per identity, within the
/// voter's budget (an answer spends what a vote does), and presenters' actions on polls.
package struct PollIntake: Sendable {
  package let room: SessionRoom

  package init(room: SessionRoom) { self.room = room }

  /// A word cloud answer the session's word filter (or a silencing) would hold back: a word
  /// cloud has no review, so it is refused.
  package static let filtered =
    "This session does not take that answer: it has words the organisers filter out."

  /// An open text's answer that waits for presenters, though counted at once.
  package static let held =
    "Sent. The presenters review answers before the room sees them."

  package func respond(to answer: PollAnswer, from connection: SocketConnection) async
    -> PollAnswerResponse
  {
    func refuse(_ message: String, retryAfter: Duration? = nil) -> PollAnswerResponse {
      PollAnswerResponse(
        poll: answer.poll, token: answer.token, success: false, message: message,
        retryAfter: retryAfter.map(RoomReplies.seconds))
    }
    guard answer.id == connection.id else {
      return refuse("The id in pollAnswer is not this connection's id.")
    }
    guard !connection.isScreen else { return refuse("A screen does not answer polls.") }
    // A presenter sees the results and a quiz's answers: their answers would be no one's.
    guard !connection.isPresenter else {
      return refuse("A presenter's connection does not answer polls.")
    }
    guard let attendee = connection.attendee else {
      return refuse("Join the room before answering.", retryAfter: RoomReplies.storageRetry)
    }
    // Bounded before anything reads it: no poll has more options or entries than these, and
    // no entry longer than folding reads.
    guard (answer.value.choices?.count ?? 0) <= PollRules.maxOptions,
      (answer.value.words?.count ?? 0) <= PollRules.maxWords
    else { return refuse("That answer has more parts than any poll takes.") }
    // Spent before any work on it (a filtered answer too: a flood of them is rate limited).
    // An open text's answer is text the room reads, as a question is: it spends what a
    // question does; the others what a vote does.
    let isText = answer.value.text != nil
    let now = room.environment.uptime()
    if let wait =
      isText
      ? room.people.takeQuestion(connection, now: now)
      : room.people.takeVote(connection, attendee: attendee, now: now)
    {
      return refuse(RoomReplies.rateLimited, retryAfter: wait)
    }
    let giveBack = {
      if isText {
        room.people.giveBackQuestion(connection, now: room.environment.uptime())
      } else {
        room.people.giveBackVote(connection, attendee: attendee, now: room.environment.uptime())
      }
    }
    let held: Bool
    switch await screen(answer.value, from: attendee) {
    case .refused(let message): return refuse(message)
    case .unread:
      giveBack()
      return refuse(RoomReplies.failedVote, retryAfter: RoomReplies.storageRetry)
    case .passed(let review): held = review
    }
    let outcome: PollAnswerOutcome?
    do {
      outcome = try await room.store.answer(
        poll: answer.poll, attendee: attendee, value: answer.value, token: answer.token,
        at: room.environment.now(), held: held)
    } catch {
      room.logger.error("could not store a poll answer: \(error)")
      giveBack()
      return refuse(Self.failedAnswer, retryAfter: RoomReplies.storageRetry)
    }
    guard let outcome else { return refuse(RoomActionFlow.noSuchPoll) }
    let counted = outcome.refusal == nil
    return PollAnswerResponse(
      poll: answer.poll, token: answer.token, success: counted, value: outcome.value,
      seq: outcome.seq,
      message: outcome.refusal ?? (held && outcome.value?.text != nil ? Self.held : nil))
  }

  /// What the session's word filter (and its moderation) make of an answer's words, read as
  /// they are counted: a word cloud's folded (an invisible character inside a word cannot
  /// split it past the filter and join it again on the screen), an open text's cleaned. A
  /// word cloud has no review, so a match refuses it; an open text's waits for presenters
  /// (`true`), as a question would, unless the filter refuses. Choices and ratings: nothing.
  private func screen(_ value: PollValue, from attendee: UUID) async -> Screening {
    let text: String
    if let words = value.words {
      let folded = words.map(PollWords.fold)
      guard folded.allSatisfy({ $0 != nil }) else {
        return .refused(
          "An entry has at most \(PollRules.maxWordLength) characters, and something to read.")
      }
      text = folded.compactMap { $0 }.joined(separator: "\n")
    } else if let answer = value.text {
      guard let cleaned = PollRules.cleanText(answer) else {
        return .refused(
          "An answer has at most \(PollRules.maxTextAnswerLength) characters,"
            + " and something to read.")
      }
      text = cleaned
    } else {
      return .passed(held: false)
    }
    do throws(StoreError) {
      let screened = try await room.wordFilters.screen(text, asker: attendee)
      if value.words != nil || screened.mode == .refuse {
        return screened.matches.isEmpty ? .passed(held: false) : .refused(Self.filtered)
      }
      return .passed(held: room.settings.moderation || !screened.matches.isEmpty)
    } catch {
      room.logger.error("could not read the word filter: \(error)")
      return .unread
    }
  }

  /// What the word filter made of an answer.
  private enum Screening {
    /// Counted; `held`: an open text's entry waits for presenters if it is new.
    case passed(held: Bool)
    case refused(String)
    /// The filter could not be read: try again.
    case unread
  }

  /// An answer the store failed to write: the client sends it again.
  package static let failedAnswer = "Something went wrong counting the answer."

  /// A presenter's action on a poll, from a socket.
  package func respond(to action: PollAction, from connection: SocketConnection) async
    -> PollActionResponse
  {
    func refuse(_ message: String, retryAfter: Duration? = nil) -> PollActionResponse {
      PollActionResponse(
        token: action.token, poll: action.poll, success: false, message: message,
        retryAfter: retryAfter.map(RoomReplies.seconds))
    }
    guard connection.isPresenter else {
      room.logger.warning("refused a poll action from attendee \(connection.id)")
      return refuse("Only a presenter's connection may act on polls.")
    }
    guard action.id == connection.id else {
      return refuse("The id in pollAction is not this connection's id.")
    }
    guard let kind = action.kind else { return refuse("There is no such poll action.") }
    do throws(PollActionError) {
      try await perform(
        kind, on: action.poll, spec: action.spec, text: action.text, token: action.token)
      return PollActionResponse(token: action.token, poll: action.poll, success: true)
    } catch {
      return refuse(error.message, retryAfter: error.retryAfter)
    }
  }

  /// `kind` on `poll`, from a socket or the API: the spec checked, then stored exactly once
  /// per token; a change reaches the room at once.
  package func perform(
    _ kind: PollActionKind, on poll: UUID, spec: PollSpec?, text: String? = nil, token: UUID
  ) async throws(PollActionError) {
    if kind == .create || kind == .update {
      guard let spec else { throw PollActionError("A \(kind.rawValue) gives the poll's spec.") }
      if let problem = PollRules.problem(with: spec) { throw PollActionError(problem) }
    }
    let outcome: QuestionStore.RoomActionOutcome
    do {
      outcome = try await room.store.pollAction(
        kind, poll: poll, spec: spec, text: text, token: token, at: room.environment.now())
    } catch {
      room.logger.error("could not store a poll action: \(error)")
      throw PollActionError(RoomReplies.failedSave, retryAfter: RoomReplies.storageRetry)
    }
    if let refusal = outcome.refusal { throw PollActionError(refusal) }
    if outcome.changed { room.logger.info("poll \(kind.rawValue) \(poll)") }
    // Opened (or its open sent again, after a reconnect): its time limit is watched here.
    if kind == .open { await closeOnTime(poll) }
  }

  /// How many times a close the store failed is tried again, a second apart.
  static let closeAttempts = 30

  /// A quiz with a time limit that is open: closed when its time is up, so that every
  /// screen shows it closed (answers after `closesAt` are refused whatever happens here).
  /// Closed only if it is still the same opening then: a presenter may have closed and
  /// opened it again meanwhile, with a later `closesAt`. Two instances may both watch it:
  /// a close of a closed poll changes nothing.
  func closeOnTime(_ poll: UUID) async {
    guard let opened = try? await room.store.pollState(poll), opened.state == .open,
      let closesAt = opened.closesAt
    else { return }
    let intake = self
    Task {
      let wait = closesAt.timeIntervalSince(intake.room.environment.now())
      if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
      for _ in 0..<Self.closeAttempts {
        do {
          guard let now = try await intake.room.store.pollState(poll), now.state == .open,
            now.closesAt == closesAt
          else { return }
          try await intake.perform(
            .close, on: poll, spec: nil, token: intake.room.environment.makeID())
          return
        } catch {
          try? await Task.sleep(for: .seconds(1))
        }
      }
    }
  }

  /// Every open quiz with a time limit of this session watched (`closeOnTime`).
  func closeTimedPolls() async {
    guard let polls = try? await room.store.openTimedPolls() else { return }
    for poll in polls { await closeOnTime(poll) }
  }
}

/// Why a poll action was refused, in words, and when it may be tried again (a failed write).
package struct PollActionError: Error, Sendable {
  package var message: String
  package var retryAfter: Duration?

  package init(_ message: String, retryAfter: Duration? = nil) {
    self.message = message
    self.retryAfter = retryAfter
  }
}
