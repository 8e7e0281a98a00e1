import CommandLineValues
import QnA
import RFC6455
import WebSocketClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// How the engine talks to the server.
public struct EngineConfiguration: Sendable {
  public var client: ClientConfiguration
  public var state: QnAConfiguration
  /// Send questions as binary frames (what existing clients do) or as text.
  public var sendsBinary: Bool
  /// Where unconfirmed questions survive a restart; `nil` keeps them in memory only.
  public var pendingFile: PendingQuestionsFile?
  /// What becomes of the refused questions an earlier run kept.
  public var keptRefusals: KeptRefusals
  /// Where this attendee's id is kept for the server; `nil`: a new id each run.
  public var attendeeFile: AttendeeFile?
  /// The name shown beside this attendee's questions in the room; anonymous without one.
  public var attendeeName: String?
  /// Extension `labels`: the label this attendee's questions go under (`qna --label`).
  public var askLabel: String?

  public enum KeptRefusals: Sendable {
    /// Shown as refused until the user retries or discards them.
    case keep
    case retry
    case discard
  }

  /// The largest message a Q&A server sends: its messages carry one question (at most 16 KiB
  /// on the existing back ends) or a page of the room; four times that leaves room, and keeps
  /// what a hostile server can make the client hold small.
  public static let maxServerMessageSize = 64 * 1024

  /// The client's defaults, with the message limit sized for the protocol.
  public static var defaultClient: ClientConfiguration {
    ClientConfiguration(
      protocolLimits: Configuration(maxMessageSize: maxServerMessageSize),
      reconnect: ReconnectPolicy())
  }

  public init(
    client: ClientConfiguration = EngineConfiguration.defaultClient,
    state: QnAConfiguration = QnAConfiguration(), sendsBinary: Bool = true,
    pendingFile: PendingQuestionsFile? = nil, keptRefusals: KeptRefusals = .keep,
    attendeeFile: AttendeeFile? = nil, attendeeName: String? = nil, askLabel: String? = nil
  ) {
    self.askLabel = askLabel
    self.client = client
    self.state = state
    self.sendsBinary = sendsBinary
    self.pendingFile = pendingFile
    self.keptRefusals = keptRefusals
    self.attendeeFile = attendeeFile
    self.attendeeName = attendeeName
  }
}

/// The Q&A client without a face: a WebSocket connection, the wire codec and a `QnAState`,
/// wired together. Front ends call `ask` and read `updates`: every new state, with the changes
/// it reported.
///
/// Sends leave through one outbox task, so questions reach the wire in the order the
/// reducer released them, even while other events are being applied.
public actor QnAEngine {
  public nonisolated let url: WebSocketURL
  /// Every new state with the changes it reported, in order (keep-alive round trips and
  /// stalls too, which report no change). Ends after the connection has stopped for good.
  /// A reader slower than the updates gets them merged (`UpdateMailbox`): the latest state,
  /// each room question once as it is now, every other change in order.
  public nonisolated let updates: AsyncStream<EngineUpdate>
  public internal(set) var state: QnAState

  let client: WebSocketClient
  /// The client's events with messages decoded (or undecodable, said so) by the wire codec.
  let channel: TypedChannel<WireMessage, WireMessage>
  let clock: any SessionClock
  let codec = WireCodec()
  let sendsBinary: Bool
  /// `nil` also when another client holds the file (this run then keeps questions in memory).
  var pendingFile: PendingQuestionsFile?
  let keptRefusals: EngineConfiguration.KeptRefusals
  let attendeeFile: AttendeeFile?
  let attendeeName: String?
  var pendingLock: FileLock?
  /// What was last written to `pendingFile`, to write only when it changes.
  var savedPending: [PendingQuestionsFile.Entry] = []
  /// Votes not yet answered, kept beside the pending file (`nil` when questions are not kept).
  var votesFile: KeptVotesFile?
  var savedVotes: [KeptVote] = []
  var answersFile: KeptPollAnswersFile?
  var savedAnswers: [KeptPollAnswer] = []
  /// The last save failed (said once until one succeeds).
  var saveFailing = false
  let log: @Sendable (String) -> Void
  var random: any RandomNumberGenerator & Sendable
  let updateSink: UpdateMailbox
  let outbox: AsyncStream<Outgoing>.Continuation
  private let outboxQuestions: AsyncStream<Outgoing>
  /// Applies the connection's events to the state.
  private var consumer: Task<Void, Never>?
  /// Puts the reducer's messages on the wire, in order.
  private var sender: Task<Void, Never>?
  /// The attempt of the open connection (from `.opened`); messages built for it go out on
  /// it or not at all.
  var openAttempt = 0
  /// Questions handed to the outbox whose `sent` is not reported yet: the server's answer
  /// may arrive before the outbox hears that the socket took the message, and "sent" is
  /// reported first all the same.
  var sendsUnreported: Set<UUID> = []
  /// A disconnect waits for the event after it, which says whether and when a retry follows.
  private var pendingDisconnect: Disconnect?
  /// Wakes the state when a question that waits out a refusal may go again.
  private var wakeUp: (at: Duration, task: Task<Void, Never>)?
  private var stopped = false

  public init(
    url: WebSocketURL, configuration: EngineConfiguration = EngineConfiguration(),
    transport: any WebSocketTransport = NIOTransport(), clock: any SessionClock = SystemClock(),
    random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.url = url
    self.clock = clock
    var random = random
    // The connection's masking keys and the question tokens draw on separate streams.
    let connectionRandom = ChaCha20Random(seededFrom: &random)
    self.random = random
    self.log = log
    sendsBinary = configuration.sendsBinary
    pendingFile = configuration.pendingFile
    votesFile = configuration.pendingFile.map(KeptVotesFile.init(beside:))
    answersFile = configuration.pendingFile.map(KeptPollAnswersFile.init(beside:))
    keptRefusals = configuration.keptRefusals
    attendeeFile = configuration.attendeeFile
    attendeeName = configuration.attendeeName
    state = QnAState(configuration: configuration.state)
    if let label = configuration.askLabel { _ = state.apply(.label(label)) }
    client = WebSocketClient(
      url: url, configuration: configuration.client, transport: transport, clock: clock,
      random: connectionRandom)
    channel = TypedChannel(client, coding: Self.coding(sendsBinary: configuration.sendsBinary))
    let mailbox = UpdateMailbox()
    updateSink = mailbox
    updates = AsyncStream(unfolding: { await mailbox.next() })
    (outboxQuestions, outbox) = AsyncStream.makeStream()
    mailbox.readState { [weak self] in await self?.state }
  }

  /// Whether unsent questions survive quitting (the pending file is this client's).
  public var keepsPendingQuestions: Bool { pendingFile != nil }

  /// Restores the questions left pending by an earlier run (queued again, in their order),
  /// then connects, and keeps connecting as the reconnect policy says. Returns the restored
  /// questions.
  @discardableResult
  public func start() -> [Question] { start(asking: []).restored }

  /// `start()`, with `texts` asked after the restored questions and before the connection
  /// starts: asked after, a refused connection without reconnecting could end the updates
  /// first, and the questions would be queued unseen (`qna --headless --ask`).
  public func start(asking texts: [String]) -> (restored: [Question], asked: [Question?]) {
    guard consumer == nil else { return ([], []) }
    introduceAttendee()
    let restored = restorePending()
    let asked = texts.map { ask($0) }
    client.start()
    let events = channel.events
    let questions = outboxQuestions
    consumer = Task { await self.consume(events) }
    sender = Task { await self.drainOutbox(questions) }
    return (restored, asked)
  }

  /// The user typed a question. Its token is made here, from the injected randomness.
  /// Returns the question, or `nil` if it was refused (empty, too long: see the notice).
  @discardableResult
  public func ask(_ text: String) -> Question? {
    let token = makeToken()
    apply(.ask(text, token: token))
    return state.question(token: token)
  }

  public func retry(_ token: UUID) { apply(.retry(token)) }

  /// Votes for a question of the room (`up`), or takes the vote back.
  public func vote(_ question: UUID, up: Bool) {
    apply(.vote(question: question, up: up, token: makeToken()))
  }

  /// Gives up a question the server refused for good.
  public func discard(_ token: UUID) { apply(.discard(token)) }

  /// The presenter's console: an action on a poll.
  public func actOnPoll(_ kind: PollActionKind, _ poll: UUID, text: String? = nil) {
    apply(.pollAct(kind, poll: poll, token: makeToken(), text: text))
  }

  /// Answers a poll (extension `polls`), or changes the answer; kept until the server
  /// answers it.
  public func answerPoll(_ poll: UUID, _ value: PollValue, token: UUID? = nil) {
    apply(.answerPoll(poll: poll, value: value, token: token ?? makeToken()))
  }

  /// A presenter's action on a question, or on the room (`question` nil: `announce`, with
  /// `text` nil to clear) (`qna present`): queued, sent once.
  public func act(
    _ action: PresenterActionKind, on question: UUID?, text: String? = nil,
    isPrivate: Bool = false
  ) {
    apply(.act(action, question: question, text: text, isPrivate: isPrivate, token: makeToken()))
  }

  /// Takes back the presenter's last dismiss, restore, highlight or unhighlight.
  public func undo() { apply(.undo(token: makeToken())) }

  /// Extension `labels`: the attendee's next questions go under `name` (`nil`: none), matched
  /// to the session's labels once the room is known.
  public func chooseLabel(_ name: String?) { apply(.label(name)) }

  /// Reconnects at once (skips the backoff wait, or drops a stuck connection).
  public func reconnectNow() { client.reconnectNow() }

  /// Reads the clock into the state (notices expire, countdowns move).
  public func tick() { apply(.clock(clock.now)) }

  /// Finishes the sends under way, closes with 1000, and waits until the connection has
  /// stopped and `updates` has ended.
  public func stop() async {
    stopped = true
    wakeUp?.task.cancel()
    wakeUp = nil
    outbox.finish()
    await sender?.value
    await client.close(code: .normalClosure)
    await consumer?.value
  }

  // MARK: Driving the state

  private func consume(_ events: TypedChannel<WireMessage, WireMessage>.Events) async {
    for await event in events { handle(event) }
    flushDisconnect(retry: nil)
    stopped = true
    wakeUp?.task.cancel()
    wakeUp = nil
    outbox.finish()
    updateSink.finish()
  }

  private func handle(_ event: TypedChannel<WireMessage, WireMessage>.Event) {
    switch event {
    case .connection(let event): handle(event)
    case .value(let message):
      flushDisconnect(retry: nil)
      apply(.received(message))
    case .undecodable(_, let error):
      flushDisconnect(retry: nil)
      apply(.undecodable(error as? WireDecodingError ?? .malformed("\(error)")))
    }
  }

  private func handle(_ event: ClientEvent) {
    if case .reconnecting(let after, let attempt) = event {
      flushDisconnect(retry: .init(after: after, attempt: attempt))
      return
    }
    if case .connecting(let attempt) = event, attempt > 1 {
      // A "reconnect now" skips the backoff: the retry is immediate.
      flushDisconnect(retry: .init(after: .zero, attempt: attempt))
    } else {
      flushDisconnect(retry: nil)
    }
    switch event {
    case .connecting(let attempt): apply(.connecting(attempt: attempt))
    case .opened(_, let attempt):
      openAttempt = attempt
      apply(.connected)
    case .message: break  // decoded by the channel: the other `handle`
    case .roundTrip(let time): apply(.roundTrip(time))
    case .stalled(let waited): apply(.stalled(waited: waited))
    case .disconnected(let disconnect): pendingDisconnect = disconnect
    case .reconnecting: break
    }
  }

  private func flushDisconnect(retry: QnAEvent.Retry?) {
    guard let disconnect = pendingDisconnect else { return }
    pendingDisconnect = nil
    apply(.disconnected(reason: disconnect.description, retry: retry))
  }

  func apply(_ event: QnAEvent) {
    let now = clock.now
    // The clock first, and its effects too: it may release a question that waited.
    var effects = now > state.now ? state.apply(.clock(now)) : []
    effects += state.apply(event)
    var reported: [QnAChange] = []
    for effect in effects {
      switch effect {
      case .send(let message, let token):
        sendsUnreported.insert(token)
        outbox.yield(.question(message, token, attempt: openAttempt))
      case .resume(let message): outbox.yield(.other(.resume(message), attempt: openAttempt))
      case .join(let message): outbox.yield(.other(.join(message), attempt: openAttempt))
      case .payAndJoin(let message, let price):
        outbox.yield(.paidJoin(message, price, attempt: openAttempt))
      case .vote(let message): outbox.yield(.other(.vote(message), attempt: openAttempt))
      case .pollAnswer(let message):
        outbox.yield(.other(.pollAnswer(message), attempt: openAttempt))
      case .pollAction(let message):
        outbox.yield(.other(.pollAction(message), attempt: openAttempt))
      case .keepIdentity(let attendee, let credential):
        keepIdentity(attendee: attendee, credential: credential)
      case .presenterAction(let message):
        outbox.yield(.other(.presenterAction(message), attempt: openAttempt))
      // "Sent" is reported by the outbox, once the socket has taken the message.
      case .report(.sent): break
      case .report(let change):
        // The server answered a question before the outbox reported it sent: it was.
        if let answered = Self.answeredQuestion(change),
          sendsUnreported.remove(answered.id) != nil
        {
          reported.append(.sent(answered))
        }
        reported.append(change)
      case .log(let line): log(line)
      }
    }
    savePending()
    saveVotes()
    scheduleWakeUp()
    updateSink.post(changes: reported)
  }

  /// Keeps one timer at the state's next wake-up; the clock reading it applies sends what
  /// the wait held back.
  private func scheduleWakeUp() {
    let next = state.nextWakeUp
    guard next != wakeUp?.at else { return }
    wakeUp?.task.cancel()
    wakeUp = nil
    guard let next, !stopped else { return }
    let clock = self.clock
    wakeUp = (
      next,
      Task { [weak self] in
        guard (try? await clock.sleep(until: next)) != nil else { return }
        await self?.wake(at: next)
      }
    )
  }

  private func wake(at time: Duration) {
    guard wakeUp?.at == time else { return }
    wakeUp = nil
    apply(.clock(clock.now))
  }

  func makeToken() -> UUID {
    var bytes = (random.next(), random.next())
    // RFC 9562 version 4, variant 10.
    bytes.0 = (bytes.0 & ~(0xF << 12)) | (0x4 << 12)
    bytes.1 = (bytes.1 & ~(0x3 << 62)) | (0x2 << 62)
    return withUnsafeBytes(of: (bytes.0.bigEndian, bytes.1.bigEndian)) { raw in
      UUID(uuid: raw.load(as: uuid_t.self))
    }
  }
}

/// One new state of the engine, and the changes it reported (often none: a round trip, a
/// clock reading).
public struct EngineUpdate: Sendable {
  public let state: QnAState
  public let changes: [QnAChange]

  package init(state: QnAState, changes: [QnAChange]) {
    self.state = state
    self.changes = changes
  }
}
