import Foundation
import QnA
import QnAStore

/// Extension `room`: takes in votes, one per question, within the voter's budget.
package struct VoteIntake: Sendable {
  package let room: SessionRoom

  package init(room: SessionRoom) { self.room = room }

  package func respond(to vote: Vote, from connection: SocketConnection) async -> VoteResponse {
    func refuse(_ message: String, retryAfter: Duration? = nil) -> VoteResponse {
      VoteResponse(
        question: vote.question, token: vote.token, success: false, voted: false, votes: 0,
        message: message, retryAfter: retryAfter.map(RoomReplies.seconds))
    }
    guard vote.id == connection.id else {
      return refuse("The id in vote is not this connection's id.")
    }
    // A screen watches (extension `audience`): its votes are refused for good.
    guard !connection.isScreen else { return refuse("A screen does not vote.") }
    guard let attendee = connection.attendee else {
      // A joined socket may be waiting for its identity (`joined` said when to ask again).
      return refuse("Join the room before voting.", retryAfter: RoomReplies.storageRetry)
    }
    if let wait = room.people.takeVote(
      connection, attendee: attendee, now: room.environment.uptime())
    {
      return refuse(RoomReplies.rateLimited, retryAfter: wait)
    }
    let outcome: QuestionStore.VoteOutcome?
    do {
      outcome = try await room.store.vote(
        attendee: attendee, question: vote.question, up: vote.up, at: room.environment.now())
    } catch {
      room.logger.error("could not store a vote: \(error)")
      // Not counted, so not spent: the retry must not find the attendee rate limited.
      room.people.giveBackVote(connection, attendee: attendee, now: room.environment.uptime())
      return refuse(RoomReplies.failedVote, retryAfter: RoomReplies.storageRetry)
    }
    guard let outcome else { return refuse("There is no such question.") }
    if outcome.refusal == nil { room.metrics.votes.increment() }
    return VoteResponse(
      question: vote.question, token: vote.token, success: outcome.refusal == nil,
      voted: outcome.voted, votes: outcome.votes, seq: outcome.seq, message: outcome.refusal)
  }
}
