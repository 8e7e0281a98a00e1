import Foundation
import QnA
import QnAStore

/// Reads what a socket sent and hands it to the part that answers it. Anything but a valid
/// message for the server is logged and ignored, as the existing back ends do: no reply, the
/// connection stays up.
package struct MessageRouter: Sendable {
  package let room: SessionRoom
  private let codec = WireCodec()

  package init(room: SessionRoom) { self.room = room }

  /// The extensions' messages a client may send: a malformed one is refused in words.
  static let refusedTypes: Set<String> = [
    "join", "vote", "presenterAction", "resume", "pollAnswer", "pollAction",
  ]

  package func receive(_ bytes: [UInt8], from connection: SocketConnection) async {
    let message: WireMessage
    let extensions = room.settings.extensions
    do {
      message = try codec.decode(bytes)
    } catch {
      room.logger.warning("ignored from \(connection.id): \(error)")
      // A room message the server cannot read is refused in words, within the socket's
      // budget for refusals (silent past it); the base protocol's stay unanswered, as the
      // existing back ends leave them.
      if extensions, case .invalidFields(let type, let detail) = error,
        Self.refusedTypes.contains(type),
        connection.mayRefuseJoin(now: room.environment.uptime())
      {
        room.send(
          .refusal(
            Refusal(refused: type, message: "This \(type) could not be read: \(detail.prefix(200))")
          ),
          to: connection)
      }
      return
    }
    switch message {
    case .newQuestion(let question):
      let response = await QuestionIntake(room: room).respond(to: question, from: connection)
      room.send(.questionResponse(response), to: connection)
    case .resume(let resume) where extensions:
      await Resumption(room: room).resume(resume, from: connection)
    case .join(let join) where extensions:
      await RoomJoins(room: room).join(join, from: connection)
    case .vote(let vote) where extensions:
      let response = await VoteIntake(room: room).respond(to: vote, from: connection)
      room.send(.voteResponse(response), to: connection)
    case .presenterAction(let action) where extensions:
      let response = await PresenterActions(room: room).respond(to: action, from: connection)
      room.send(.presenterActionResponse(response), to: connection)
    case .pollAnswer(let answer) where extensions:
      let response = await PollIntake(room: room).respond(to: answer, from: connection)
      room.send(.pollAnswerResponse(response), to: connection)
    case .pollAction(let action) where extensions:
      let response = await PollIntake(room: room).respond(to: action, from: connection)
      room.send(.pollActionResponse(response), to: connection)
    default:
      room.logger.warning("ignored from \(connection.id): \(message.type) is not for the server")
    }
  }
}

extension SessionRoom {
  /// Extensions announced in every handshake, and the session, when it is not the default.
  package func handshake(_ connection: SocketConnection, session: SessionRecord? = nil)
    -> Handshake
  {
    guard settings.extensions else { return Handshake(id: connection.id) }
    let extensions = [
      ProtocolExtension.token, ProtocolExtension.resume, ProtocolExtension.retryAfter,
      ProtocolExtension.room, ProtocolExtension.lifecycle, ProtocolExtension.sessions,
      ProtocolExtension.identity, ProtocolExtension.audience, ProtocolExtension.sessionState,
      ProtocolExtension.announcements, ProtocolExtension.queue, ProtocolExtension.labels,
      ProtocolExtension.tickets, ProtocolExtension.polls,
    ]
    let compact = settings.compactRoom ? [ProtocolExtension.counts] : []
    let work = settings.identityWork != nil ? [ProtocolExtension.identityWork] : []
    return Handshake(
      id: connection.id,
      extensions: extensions + compact + work
        + (connection.isPresenter
          ? [
            ProtocolExtension.presenter, ProtocolExtension.wordFilter, ProtocolExtension.moderation,
          ]
          : []),
      session: session.map { SessionInfo(code: $0.code, title: $0.title, open: $0.open) },
      maxMessageSize: settings.maxMessageSize, identityWork: identityWork(for: connection))
  }

  /// What a new identity costs on `connection`: nothing where its address is not counted.
  package func identityWork(for connection: SocketConnection) -> IdentityWork? {
    connection.address == nil || connection.isPresenter ? nil : settings.identityWork
  }
}

/// What the room says in its replies, in one place.
package enum RoomReplies {
  package static let created = "Question created. We will answer it as soon as possible :]"
  package static let failedSave = "Something went wrong creating the question."
  /// A vote the store failed to write: the client sends it again after `storageRetry`.
  package static let failedVote = "Something went wrong counting the vote."
  package static let inReview =
    "Question received. The presenter reviews questions before the room sees them."
  package static let rateLimited = "Too many questions at once."
  /// A question the session's word filter refuses (the filter set to refuse): final.
  package static let filtered =
    "This session does not take that question: it has words the organisers filter out."
  package static let tooManyNewAttendees =
    "Too many new attendees from your network at once: votes count once you have joined."
  /// A join whose work (extension `identityWork`) does not pay for its new identity.
  package static let unpaidIdentity = "The work sent for a new identity does not check out."
  /// A session that admits by ticket (extension `tickets`), to a join without one: final.
  package static let ticketNeeded =
    "This session admits attendees by personal ticket: open the link on yours."
  /// The no-script form, in a session that admits by ticket: final.
  package static let formNeedsTicket =
    "This session takes questions from ticket holders: open the link on yours, with scripts on."
  /// A ticket that is not one of the session's: final.
  package static let unknownTicket = "That ticket is not one of this session's."
  /// After a failed write, the client waits this long before sending again.
  package static let storageRetry: Duration = .seconds(1)

  /// `retryAfter` as the wire has it: seconds, rounded up to the millisecond.
  package static func seconds(_ duration: Duration) -> Double {
    max(0.001, (duration / .seconds(1) * 1000).rounded(.up) / 1000)
  }
}
