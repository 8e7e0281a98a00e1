#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything that can happen to a `QnAState`: connection changes, server messages, the
/// user's actions and clock readings. Randomness (question tokens) and time arrive inside
/// events, so `apply` stays pure.
public enum QnAEvent: Sendable, Hashable {
  /// The clock now reads this (monotonic, since an arbitrary origin).
  case clock(Duration)
  case connecting(attempt: Int)
  /// The WebSocket is open; the server's handshake message comes next.
  case connected
  case received(WireMessage)
  /// A message from the server that did not decode: logged, counted, ignored.
  case undecodable(WireDecodingError)
  case roundTrip(Duration)
  /// The outstanding keep-alive ping has waited this long.
  case stalled(waited: Duration)
  /// The connection ended; `retry` says when and as which attempt it comes back, if it does.
  case disconnected(reason: String, retry: Retry?)
  /// The user typed a question; `token` is a fresh UUID for it.
  case ask(String, token: UUID)
  /// A question typed in an earlier run and kept unsent: queued as typed, without the
  /// length limit of this run (which may be lower than the one it was typed under); or, with
  /// `failure`, kept as refused for good until the user retries or discards it.
  case restore(String, token: UUID, failure: String? = nil)
  /// The user asks again a question the server refused.
  case retry(UUID)
  /// The user gives up a question the server refused: it leaves the list and the pending
  /// file.
  case discard(UUID)
  /// Who this attendee is (a stable id kept per server), and the name to show, if any: given
  /// once, before connecting.
  case identity(attendee: UUID, name: String?, credential: UUID? = nil)
  /// The user votes for a question of the room (`up`), or takes the vote back; `token` is a
  /// fresh UUID for it.
  case vote(question: UUID, up: Bool, token: UUID)
  /// A vote an earlier run kept on disk, not yet answered: queued again as it was.
  case restoreVote(KeptVote)
  /// Extension `polls`: the user answers a poll, or changes the answer; `token` is a fresh
  /// id for this answer.
  case answerPoll(poll: UUID, value: PollValue, token: UUID)
  /// An answer an earlier run kept on disk, not yet answered: queued again as it was.
  case restorePollAnswer(KeptPollAnswer)
  /// The presenter's console: an action on a poll (exactly once per `token`).
  /// `text`: an open text's entry, for `approve` and `dismiss`.
  case pollAct(PollActionKind, poll: UUID, token: UUID, text: String? = nil)
  /// The presenter acts on a question (`qna present`), or on the room (`question` nil);
  /// `token` is a fresh UUID for it.
  case act(
    PresenterActionKind, question: UUID?, text: String? = nil, isPrivate: Bool = false,
    token: UUID)
  /// Extension `labels`: the label the attendee's next questions carry (`nil`: none), as
  /// typed; matched to the session's labels, whatever its case, once the room is known.
  case label(String?)
  /// The presenter takes back their last dismiss, restore, highlight or unhighlight.
  case undo(token: UUID)
  /// A `send` effect could not be performed (the connection went away under it).
  case sendFailed(UUID)
  /// Something the front end should tell the attendee (from the client itself, not the
  /// server): shown and expired like any notice.
  case notice(String, kind: Notice.Kind)
  /// The same in our words, which a front end may translate.
  case message(Message, kind: Notice.Kind)

  public struct Retry: Sendable, Hashable {
    public var after: Duration
    public var attempt: Int

    public init(after: Duration, attempt: Int) {
      self.after = after
      self.attempt = attempt
    }
  }
}

/// What the caller of `apply` must do, or may show.
public enum QnAEffect: Sendable, Hashable {
  /// Put this message on the wire for the question with this token; report `sendFailed`
  /// if that fails.
  case send(NewQuestion, token: UUID)
  /// Put this `resume` on the wire (servers with the extension only); nothing to report if
  /// it fails, the next handshake sends another. A long list comes as several, each small
  /// enough for any server's message limit.
  case resume(Resume)
  /// Put this `join` on the wire (servers with the room), before anything else after a
  /// handshake; if it fails, the next handshake sends another.
  case join(Join)
  /// Extension `identityWork`: pay this price for a new identity on the join's connection,
  /// then put the join on the wire with the work, still before anything after it.
  case payAndJoin(Join, IdentityWork)
  /// Put this vote on the wire; if it fails, the next connection sends it again.
  case vote(Vote)
  /// Extension `polls`: put this answer on the wire; if it fails, the next connection sends
  /// it again.
  case pollAnswer(PollAnswer)
  /// Extension `polls`, a presenter's: put this action on the wire.
  case pollAction(PollAction)
  /// Extension `identity`: keep this attendee id and credential for this server from now on.
  case keepIdentity(attendee: UUID, credential: UUID)
  /// Put this presenter action on the wire; if it fails, the next connection sends it again.
  case presenterAction(PresenterAction)
  /// A change the attendee (or a script) should hear about.
  case report(QnAChange)
  /// Worth a line in the log, nothing more.
  case log(String)
}

/// The observable changes of a `QnAState`, one per line in headless mode.
public enum QnAChange: Sendable, Hashable {
  case connecting(attempt: Int)
  case connected
  /// `session`: the session it belongs to, on a server with extension `sessions`.
  case handshake(connectionID: UUID, session: SessionInfo? = nil)
  case queued(Question)
  case sent(Question)
  case created(Question, message: String)
  /// Refused for now; sent again in `retryIn`.
  case waiting(Question, retryIn: Duration, reason: String)
  case failed(Question, reason: String)
  /// A refused question the user gave up.
  case discarded(Question)
  case answered(Question)
  /// A question of the room as it is now (`removed`: it left the room).
  case roomQuestion(RoomEntry, removed: Bool)
  /// A presenter's action: queued, done, or refused (with the server's reason).
  case action(PresenterDesk.Action, outcome: PresenterDesk.Outcome)
  case disconnected(reason: String, retry: QnAEvent.Retry?)
  case notice(Notice)
  /// Extension `sessionState`: the session was closed, reopened or deleted.
  case session(SessionInfo, deleted: Bool)
  /// Extension `announcements`: the room's banner is this text now (`nil`: cleared).
  case announcement(String?)
  /// Extension `polls`: a poll as it is now, with this attendee's answer (`poll` nil: it left
  /// the room).
  case poll(id: UUID, poll: RoomPoll?, answer: PollValue?)
}
