import Foundation
import QnA

/// The room on the desk: attendees joining, their votes, and the question being answered.
extension QuestionDesk {
  /// Names longer than this are cut: they are shown beside questions.
  static let maxNameLength = 60

  func join(_ join: Join, from connection: SocketConnection) async {
    guard join.id == connection.id else {
      logger.warning("ignored join from \(connection.id) naming \(join.id)")
      return
    }
    connection.attendee = join.attendee
    let name = join.name.map { String($0.prefix(Self.maxNameLength)) }.flatMap {
      $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0
    }
    do {
      try await store.join(attendee: join.attendee, name: name, at: environment.now())
    } catch {
      logger.error("could not record attendee: \(error)")
    }
    room.join(connection, join)
  }

  func respond(to vote: Vote, from connection: SocketConnection) async -> VoteResponse {
    func refuse(_ message: String, retryAfter: Duration? = nil) -> VoteResponse {
      VoteResponse(
        question: vote.question, token: vote.token, success: false, voted: false, votes: 0,
        message: message, retryAfter: retryAfter.map(Self.seconds))
    }
    guard vote.id == connection.id else {
      return refuse("The id in vote is not this connection's id.")
    }
    guard let attendee = connection.attendee else {
      return refuse("Join the room before voting.")
    }
    if let wait = connection.takeVote(now: environment.uptime()) {
      return refuse(Self.rateLimitedMessage, retryAfter: wait)
    }
    let outcome: QuestionStore.VoteOutcome?
    do {
      outcome = try await store.vote(
        attendee: attendee, question: vote.question, up: vote.up, at: environment.now())
    } catch {
      logger.error("could not store a vote: \(error)")
      return refuse(Self.failedSaveMessage, retryAfter: Self.storageRetry)
    }
    guard let outcome else { return refuse("There is no such question.") }
    if outcome.refusal == nil { store.metrics.votes.increment() }
    room.changed()
    return VoteResponse(
      question: vote.question, token: vote.token, success: outcome.refusal == nil,
      voted: outcome.voted, votes: outcome.votes, seq: outcome.seq, message: outcome.refusal)
  }

  /// A presenter's action over the socket: only on a presenter's connection.
  func respond(to action: PresenterAction, from connection: SocketConnection) async
    -> PresenterActionResponse
  {
    func refuse(_ message: String, retryAfter: Duration? = nil) -> PresenterActionResponse {
      PresenterActionResponse(
        token: action.token, question: action.question, success: false, message: message,
        retryAfter: retryAfter.map(Self.seconds))
    }
    guard connection.isPresenter else {
      logger.warning("refused a presenter action from attendee \(connection.id)")
      return refuse("Only a presenter's connection may act on questions.")
    }
    guard action.id == connection.id else {
      return refuse("The id in presenterAction is not this connection's id.")
    }
    guard let kind = action.kind else { return refuse("There is no such action.") }
    if let problem = Self.answerProblem(action.text) { return refuse(problem) }
    let outcome: QuestionStore.ActionOutcome?
    do {
      outcome = try await perform(
        kind, on: action.question, text: action.text, isPrivate: action.isPrivate == true,
        token: action.token)
    } catch {
      logger.error("could not store an action: \(error)")
      return refuse(Self.failedSaveMessage, retryAfter: Self.storageRetry)
    }
    guard let outcome else { return refuse("There is no such question.") }
    return PresenterActionResponse(
      token: action.token, question: action.question, success: outcome.refusal == nil,
      message: outcome.refusal)
  }
}
