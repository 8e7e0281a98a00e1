import DequeModule

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The limits and timings a `QnAState` works with.
public struct QnAConfiguration: Sendable, Hashable {
  /// Longest question, in characters (grapheme clusters). Default 1,000.
  public var maxQuestionLength: Int
  /// Largest `newQuestion` message, in bytes: the existing back ends close the socket (1009)
  /// on a message over 16 KiB. Default 16,384.
  public var maxMessageBytes: Int
  /// How long a notice stays up. Default 5 s.
  public var noticeLifetime: Duration
  /// Notices shown at once; older ones go first. Default 3.
  public var maxNotices: Int
  /// The front end shows the room: a server without it is worth a notice. Default false
  /// (headless output stays as it was unless `--room`).
  public var expectsRoom: Bool
  /// The presenter's console (`qna present`): every question in every state is shown, and
  /// presenter actions may be queued. Default false.
  public var presenter: Bool
  /// A screen for the room (`qna screen`): joins as one (extension `audience`), so that it
  /// is not counted, and learns how many attendees there are. Default false.
  public var screen = false
  /// Extension `tickets`: the attendee's personal ticket (canonical), sent with a join that
  /// has no credential. Default none.
  public var ticket: String?

  public init(
    maxQuestionLength: Int = 1000, maxMessageBytes: Int = 16_384,
    noticeLifetime: Duration = .seconds(5), maxNotices: Int = 3, expectsRoom: Bool = false,
    presenter: Bool = false
  ) {
    self.presenter = presenter
    self.maxQuestionLength = maxQuestionLength
    self.maxMessageBytes = maxMessageBytes
    self.noticeLifetime = noticeLifetime
    self.maxNotices = maxNotices
    self.expectsRoom = expectsRoom
  }
}

/// Everything the client knows, changed only by `apply`: pure and deterministic, driven the
/// same way by the terminal UI, the headless mode and the tests.
///
/// Lookups are hashed (token, server id), so applying a server message costs the same with
/// ten questions or ten thousand; only the typed-but-unconfirmed questions are ever scanned.
public struct QnAState: Sendable, Equatable {
  public let configuration: QnAConfiguration
  /// The last clock reading.
  public internal(set) var now: Duration = .zero
  public internal(set) var connection: ConnectionStatus = .idle
  /// Round trip of the last answered keep-alive ping.
  public internal(set) var roundTrip: Duration?
  /// Set while a keep-alive ping waits unusually long for its pong.
  public internal(set) var stalledFor: Duration?
  /// Server messages that did not decode, since the start.
  public internal(set) var undecodableCount = 0
  /// Current notices, oldest first (expired ones leave on the next clock reading).
  public internal(set) var notices: [Notice] = []

  /// Every question, by token.
  var questions: [UUID: Question] = [:]
  /// Server id → token, for the questions the server confirmed.
  var tokenByServerID: [UUID: UUID] = [:]
  /// Tokens of the questions not yet confirmed, in typed order. Confirmed ones leave lazily
  /// (from the front at once, elsewhere in batches), so confirming stays O(1) amortized.
  package var unconfirmed: Deque<UUID> = []
  var confirmedInUnconfirmed = 0
  /// Answers that arrived before the response that names their question.
  package var earlyAnswers: Set<UUID> = []
  /// Server ids of failure responses seen, so that a repeated one changes nothing.
  package var failedServerIDs: Set<UUID> = []
  /// Questions in the list that were not typed here (a server sent them).
  var foreignQuestions = 0
  var nextSequence = 0
  /// Whether the current server sends questions twice without complaint (no `token`
  /// extension) has been said; and whether answers may be lost (no `resume`).
  var warnedAboutDuplicates = false
  var warnedAboutLostAnswers = false
  /// Handshakes seen so far: the second one is a reconnect.
  var handshakes = 0
  /// The extensions the current server announced in its last handshake.
  public internal(set) var serverExtensions: Set<String> = []
  /// Set by a refusal that may be retried: from then on one question is on the wire at a
  /// time, in typed order, until none is left to send, so that a backlog meets a rate limit
  /// with one refusal per question at most instead of one per question per retry.
  package var pacing = false
  /// The whole room (extension `room`).
  public internal(set) var room = Room()
  /// Who this attendee is: a stable id the engine keeps per server, and an optional name.
  public internal(set) var attendeeID: UUID?
  /// Extension `identity`: the credential the server issued for `attendeeID`.
  public internal(set) var attendeeCredential: UUID?
  /// Extension `sessions`: the session the server says this connection is in (title, join
  /// code, open or closed).
  public internal(set) var session: SessionInfo?
  /// Extension `audience`: how many attendees the room has, when this client is a screen.
  public internal(set) var audience: Int?
  var attendeeName: String?
  /// That this server shows only the attendee's own questions has been said; that it does
  /// not take this console's actions, too.
  var warnedAboutNoRoom = false
  var warnedAboutNoPresenter = false
  /// The presenter's actions (`qna present`): queued, sent, answered.
  public internal(set) var desk = PresenterDesk()
  /// Extension `labels`: the label the attendee asked for, as typed, until the room's labels
  /// settle it; and the session's label the next questions carry.
  var wantedLabel: String?
  public internal(set) var askLabel: String?
  /// That the session lacks `wantedLabel` has been said.
  var wantedLabelTold = false

  public init(configuration: QnAConfiguration = QnAConfiguration()) {
    self.configuration = configuration
  }

  /// The connection id of the current handshake, if questions can go out.
  public var connectionID: UUID? {
    if case .ready(let id) = connection { return id }
    return nil
  }

  public func question(token: UUID) -> Question? { questions[token] }

  public func question(serverID: UUID) -> Question? {
    tokenByServerID[serverID].flatMap { questions[$0] }
  }

  /// Applies one event and says what to do about it.
  public mutating func apply(_ event: QnAEvent) -> [QnAEffect] {
    switch event {
    case .clock(let now):
      advanceClock(to: now)
      return (pacing ? dispatchReady() : []) + joinAgainIfDue() + sendVotes() + sendActions()
    case .received(let message):
      return receive(message)
    case .undecodable(let error):
      undecodableCount += 1
      return [.log("ignored: \(error)")]
    case .ask(let text, let token):
      return ask(text, token: token)
    case .restore(let text, let token, let failure):
      return restore(text, token: token, failure: failure)
    case .retry(let token):
      return retry(token)
    case .discard(let token):
      return discard(token)
    case .identity(let attendee, let name, let credential):
      attendeeID = attendee
      attendeeName = name
      attendeeCredential = credential
      return []
    case .restoreVote(let vote):
      room.pendingVotes[vote.question] = Room.PendingVote(up: vote.up, token: vote.token)
      return []
    case .vote(let question, let up, let token):
      return vote(question, up: up, token: token)
    case .answerPoll(let poll, let value, let token):
      return answer(poll, value: value, token: token)
    case .pollAct(let kind, let poll, let token, let text):
      return actOnPoll(kind, poll: poll, token: token, text: text)
    case .restorePollAnswer(let kept):
      room.polls.pending[kept.poll] = RoomPolls.PendingAnswer(value: kept.value, token: kept.token)
      return []
    case .act(let action, let question, let text, let isPrivate, let token):
      return act(action, on: question, text: text, isPrivate: isPrivate, token: token)
    case .undo(let token):
      return undo(token: token)
    case .label(let name):
      return chooseLabel(name)
    case .sendFailed(let token):
      return requeue(token)
    case .notice(let text, let kind):
      return [notice(text, kind: kind)]
    case .message(let message, let kind):
      return [notice(message, kind: kind)]
    case .connecting, .connected, .roundTrip, .stalled, .disconnected:
      return applyConnectionChange(event)
    }
  }

  private mutating func advanceClock(to now: Duration) {
    self.now = max(self.now, now)
    notices.removeAll { $0.expiresAt <= self.now }
  }

  /// A notice in words from elsewhere (the server's), shown as they are.
  mutating func notice(_ text: String, kind: Notice.Kind) -> QnAEffect {
    add(Notice(text: text, kind: kind, expiresAt: now + configuration.noticeLifetime))
  }

  /// A notice in our words, which a front end may translate.
  mutating func notice(_ message: Message, kind: Notice.Kind) -> QnAEffect {
    add(Notice(message, kind: kind, expiresAt: now + configuration.noticeLifetime))
  }

  private mutating func add(_ notice: Notice) -> QnAEffect {
    notices.append(notice)
    if notices.count > configuration.maxNotices {
      notices.removeFirst(notices.count - configuration.maxNotices)
    }
    return .report(.notice(notice))
  }
}
