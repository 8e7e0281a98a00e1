import Foundation
import NIOCore
import QnA
import QnAStore

/// Extension `room`: takes in votes, one per question, within the voter's budget. The same
/// steps whether the vote came through the socket's task (`respond`) or was read on its event
/// loop (`take`, `LoopVotes`).
package struct VoteIntake: Sendable {
  package let room: SessionRoom

  package init(room: SessionRoom) { self.room = room }

  package func respond(to vote: Vote, from connection: SocketConnection) async -> VoteResponse {
    let attendee: UUID
    switch admit(vote, from: connection) {
    case .refused(let response): return response
    case .admitted(let admitted): attendee = admitted
    }
    let outcome: Result<QuestionStore.VoteOutcome?, StoreError>
    do {
      outcome = .success(
        try await room.store.vote(
          attendee: attendee, question: vote.question, up: vote.up, at: room.environment.now()))
    } catch {
      outcome = .failure(error)
    }
    return answer(vote, attendee: attendee, from: connection, outcome)
  }

  /// Answers `vote` on `connection` once its batch is written, without a task of its own.
  package func take(_ vote: Vote, from connection: SocketConnection) {
    let attendee: UUID
    switch admit(vote, from: connection) {
    case .refused(let response):
      room.send(.voteResponse(response), to: connection)
      return
    case .admitted(let admitted): attendee = admitted
    }
    let room = room
    room.store.vote(
      attendee: attendee, question: vote.question, up: vote.up, at: room.environment.now()
    ) { outcome in
      let response = VoteIntake(room: room).answer(
        vote, attendee: attendee, from: connection, outcome)
      room.sendVoteAnswer(response, to: connection)
    }
  }

  private enum Admission {
    case refused(VoteResponse)
    case admitted(attendee: UUID)
  }

  /// Whose vote it is, or why the room does not take it (the voter's budget spent on it).
  private func admit(_ vote: Vote, from connection: SocketConnection) -> Admission {
    guard vote.id == connection.id else {
      return .refused(refusal(vote, "The id in vote is not this connection's id."))
    }
    // A screen watches (extension `audience`): its votes are refused for good.
    guard !connection.isScreen else { return .refused(refusal(vote, "A screen does not vote.")) }
    guard let attendee = connection.attendee else {
      // A joined socket may be waiting for its identity (`joined` said when to ask again).
      return .refused(
        refusal(vote, "Join the room before voting.", retryAfter: RoomReplies.storageRetry))
    }
    if let wait = room.people.takeVote(
      connection, attendee: attendee, now: room.environment.uptime())
    {
      return .refused(refusal(vote, RoomReplies.rateLimited, retryAfter: wait))
    }
    return .admitted(attendee: attendee)
  }

  private func answer(
    _ vote: Vote, attendee: UUID, from connection: SocketConnection,
    _ stored: Result<QuestionStore.VoteOutcome?, StoreError>
  ) -> VoteResponse {
    let outcome: QuestionStore.VoteOutcome?
    switch stored {
    case .success(let stored): outcome = stored
    case .failure(let error):
      room.logger.error("could not store a vote: \(error)")
      // Not counted, so not spent: the retry must not find the attendee rate limited.
      room.people.giveBackVote(connection, attendee: attendee, now: room.environment.uptime())
      return refusal(vote, RoomReplies.failedVote, retryAfter: RoomReplies.storageRetry)
    }
    guard let outcome else { return refusal(vote, "There is no such question.") }
    if outcome.refusal == nil { room.metrics.votes.increment() }
    return VoteResponse(
      question: vote.question, token: vote.token, success: outcome.refusal == nil,
      voted: outcome.voted, votes: outcome.votes, seq: outcome.seq, message: outcome.refusal)
  }

  private func refusal(_ vote: Vote, _ message: String, retryAfter: Duration? = nil)
    -> VoteResponse
  {
    VoteResponse(
      question: vote.question, token: vote.token, success: false, voted: false, votes: 0,
      message: message, retryAfter: retryAfter.map(RoomReplies.seconds))
  }
}

extension SessionRoom {
  /// A vote's answer, written without `Codable` when it has the plain shape (`VoteWire`), and
  /// not compressed (RFC 7692 lets any message go so): its 170 bytes would lose about 50, for
  /// a compressor's work per vote (zlib was a tenth of the votes' task time in the storm).
  package func sendVoteResponse(_ response: VoteResponse, to connection: SocketConnection) {
    guard let bytes = VoteWire.encode(response) else {
      send(.voteResponse(response), to: connection)
      return
    }
    send(raw: ByteBuffer(bytes: bytes), to: connection, compressed: false)
  }

  /// A batch's answer to a vote: on a socket whose frames go straight to its loop, framed
  /// here and handed over with the batch's other answers for that loop, to go out with the
  /// delta the batch wakes (`LoopAnswers`); otherwise as `sendVoteResponse` sends it.
  func sendVoteAnswer(_ response: VoteResponse, to connection: SocketConnection) {
    guard let loop = connection.route?.loop, let bytes = VoteWire.encode(response) else {
      sendVoteResponse(response, to: connection)
      return
    }
    LoopAnswers.on(loop).post(OutgoingMessage.uncompressedFrame(of: bytes), to: connection)
  }
}
