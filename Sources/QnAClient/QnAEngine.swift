import Foundation
import QnA
import RFC6455
import WebSocketClient

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
    pendingFile: PendingQuestionsFile? = nil, keptRefusals: KeptRefusals = .keep
  ) {
    self.client = client
    self.state = state
    self.sendsBinary = sendsBinary
    self.pendingFile = pendingFile
    self.keptRefusals = keptRefusals
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
  /// Every observable change, in order. Ends after the connection has stopped for good.
  /// Every new state with the changes it reported, in order (keep-alive round trips and
  /// stalls too, which report no change). Ends after the connection has stopped for good.
  public nonisolated let updates: AsyncStream<EngineUpdate>
  public private(set) var state: QnAState

  private let client: WebSocketClient
  private let clock: any SessionClock
  private let codec = WireCodec()
  private let sendsBinary: Bool
  /// `nil` also when another client holds the file (this run then keeps questions in memory).
  private var pendingFile: PendingQuestionsFile?
  private let keptRefusals: EngineConfiguration.KeptRefusals
  private var pendingLock: FileLock?
  /// What was last written to `pendingFile`, to write only when it changes.
  private var savedPending: [PendingQuestionsFile.Entry] = []
  /// The last save failed (said once until one succeeds).
  private var saveFailing = false
  private let log: @Sendable (String) -> Void
  private var random: any RandomNumberGenerator & Sendable
  private let updateSink: AsyncStream<EngineUpdate>.Continuation
  private let outbox: AsyncStream<Outgoing>.Continuation
  private let outboxQuestions: AsyncStream<Outgoing>
  /// Applies the connection's events to the state.
  private var consumer: Task<Void, Never>?
  /// Puts the reducer's messages on the wire, in order.
  private var sender: Task<Void, Never>?
  /// The attempt of the open connection (from `.opened`); messages built for it go out on
  /// it or not at all.
  private var openAttempt = 0
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
    keptRefusals = configuration.keptRefusals
    state = QnAState(configuration: configuration.state)
    client = WebSocketClient(
      url: url, configuration: configuration.client, transport: transport, clock: clock,
      random: connectionRandom)
    (updates, updateSink) = AsyncStream.makeStream()
    (outboxQuestions, outbox) = AsyncStream.makeStream()
  }

  /// Whether unsent questions survive quitting (the pending file is this client's).
  public var keepsPendingQuestions: Bool { pendingFile != nil }

  /// Restores the questions left pending by an earlier run (queued again, in their order),
  /// then connects, and keeps connecting as the reconnect policy says. Returns the restored
  /// questions.
  @discardableResult
  public func start() -> [Question] {
    guard consumer == nil else { return [] }
    let restored = restorePending()
    client.start()
    let events = client.events
    let questions = outboxQuestions
    consumer = Task { await self.consume(events) }
    sender = Task { await self.drainOutbox(questions) }
    return restored
  }

  private func restorePending() -> [Question] {
    guard let pendingFile else { return [] }
    let lock: FileLock?
    do {
      lock = try pendingFile.lock()
    } catch {
      keepInMemory(because: "cannot keep questions typed here after quitting: \(error)")
      return []
    }
    guard let lock else {
      log("another qna is using \(pendingFile.url.path); unsent questions stay in memory")
      self.pendingFile = nil
      apply(
        .notice(
          "Another qna is connected to this server: questions typed here are not kept "
            + "after quitting.", kind: .info))
      return []
    }
    pendingLock = lock
    let entries: [PendingQuestionsFile.Entry]
    do {
      entries = try pendingFile.load()
    } catch {
      log("\(error); moved aside")
      if !pendingFile.quarantine() {
        // Saving now would overwrite what it may still hold.
        keepInMemory(because: "\(error), and it could not be moved aside")
      }
      return []
    }
    // What the file holds now: a change (a discard) is written back.
    savedPending = entries
    for entry in entries {
      switch (entry.failure, keptRefusals) {
      case (.some, .retry): apply(.restore(entry.content, token: entry.token))
      case (.some, .discard):
        apply(.restore(entry.content, token: entry.token, failure: entry.failure))
        apply(.discard(entry.token))
      default: apply(.restore(entry.content, token: entry.token, failure: entry.failure))
      }
    }
    return entries.compactMap { state.question(token: $0.token) }
  }

  /// Writes the pending questions when they changed.
  private func savePending() {
    guard let pendingFile else { return }
    let entries = state.pendingQuestions.map { question in
      var failure: String?
      if case .failed(let reason) = question.status { failure = reason }
      return PendingQuestionsFile.Entry(
        token: question.id, content: question.content, failure: failure)
    }
    guard entries != savedPending else { return }
    do {
      try pendingFile.save(entries)
      savedPending = entries
      saveFailing = false
    } catch {
      log("\(error)")
      if !saveFailing {
        // Once per run of failures: quitting now would lose what is not saved.
        saveFailing = true
        apply(.notice("Questions typed here are not saved: \(error)", kind: .error))
      }
    }
  }

  /// The pending file cannot be used: questions stay in memory only, and the attendee hears.
  private func keepInMemory(because reason: String) {
    log(reason)
    pendingFile = nil
    apply(.notice(reason.prefix(1).uppercased() + reason.dropFirst(), kind: .error))
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

  /// Gives up a question the server refused for good.
  public func discard(_ token: UUID) { apply(.discard(token)) }

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

  private func consume(_ events: WebSocketClient.Events) async {
    for await event in events { handle(event) }
    flushDisconnect(retry: nil)
    stopped = true
    wakeUp?.task.cancel()
    wakeUp = nil
    outbox.finish()
    updateSink.finish()
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
    case .message(let message): receive(message)
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

  private func receive(_ message: WebSocketMessage) {
    do {
      apply(.received(try codec.decode(message.data)))
    } catch {
      apply(.undecodable(error))
    }
  }

  private func apply(_ event: QnAEvent) {
    let now = clock.now
    // The clock first, and its effects too: it may release a question that waited.
    var effects = now > state.now ? state.apply(.clock(now)) : []
    effects += state.apply(event)
    var reported: [QnAChange] = []
    for effect in effects {
      switch effect {
      case .send(let message, let token):
        outbox.yield(.question(message, token, attempt: openAttempt))
      case .resume(let message): outbox.yield(.resume(message, attempt: openAttempt))
      // "Sent" is reported by the outbox, once the socket has taken the message.
      case .report(.sent): break
      case .report(let change):
        reported.append(change)
      case .log(let line): log(line)
      }
    }
    savePending()
    scheduleWakeUp()
    updateSink.yield(EngineUpdate(state: state, changes: reported))
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

  /// What the outbox sends, in order.
  enum Outgoing: Sendable {
    case question(NewQuestion, UUID, attempt: Int)
    case resume(Resume, attempt: Int)
  }

  private func drainOutbox(_ messages: AsyncStream<Outgoing>) async {
    for await outgoing in messages {
      switch outgoing {
      case .question(let message, let token, let attempt):
        // Requeued by a disconnect while it waited here: the next handshake sends it anew.
        guard let question = state.question(token: token), question.status == .sending,
          message.id == state.connectionID
        else { continue }
        if await write(.newQuestion(message), onAttempt: attempt) {
          updateSink.yield(EngineUpdate(state: state, changes: [.sent(question)]))
        } else if message.id == state.connectionID {
          // Only while that connection is still current: after a new handshake the question
          // has already gone out again, and this failure must not requeue it.
          apply(.sendFailed(token))
        }
      case .resume(let message, let attempt):
        guard message.id == state.connectionID else { continue }
        _ = await write(.resume(message), onAttempt: attempt)
      }
    }
  }

  /// Encodes and sends one message on the connection of `attempt`; false (logged) if that
  /// connection is gone.
  private func write(_ message: WireMessage, onAttempt attempt: Int) async -> Bool {
    let bytes = codec.encode(message)
    do {
      let frame: WebSocketMessage =
        sendsBinary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self))
      try await client.send(frame, onAttempt: attempt)
      return true
    } catch {
      log("\(message.type) not sent (\(error)); the next connection sends it again")
      return false
    }
  }

  private func makeToken() -> UUID {
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
}
