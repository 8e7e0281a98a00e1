import CommandLineValues
import RFC6455
import Synchronization
import ZlibCompression

/// A WebSocket client that keeps a connection up: connect, keep-alive, reconnect by policy,
/// and one ordered sequence of events (`events`) carrying messages and connection changes.
///
/// Usable from any task. Sends keep their order and return once the socket took the frame.
/// `events` has a single consumer; when it falls `eventBufferSize` events behind, the client
/// stops reading from the socket (TCP then slows the server), so memory stays bounded by
/// that many events of at most `maxMessageSize` each.
public final class WebSocketClient: Sendable {
  public let url: WebSocketURL
  public let configuration: ClientConfiguration
  public let events: Events

  private let transport: any WebSocketTransport
  private let clock: any SessionClock
  private let queue: EventQueue<ClientEvent>
  private let control: Mutex<Control>

  private struct Control {
    var random: any RandomNumberGenerator & Sendable
    var session: ClientSession?
    var supervisor: Task<Void, Never>?
    var backoff: Task<Void, any Error>?
    var stopping = false
    var skipBackoff = false
  }

  public init(
    url: WebSocketURL, configuration: ClientConfiguration = ClientConfiguration(),
    transport: any WebSocketTransport = NIOTransport(), clock: any SessionClock = SystemClock(),
    random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()
  ) {
    self.url = url
    self.configuration = configuration
    self.transport = transport
    self.clock = clock
    queue = EventQueue(capacity: configuration.eventBufferSize)
    events = Events(queue: queue)
    control = Mutex(Control(random: random))
  }

  /// Starts connecting; events follow in `events`. Calling it again does nothing.
  public func start() {
    control.withLock { control in
      guard control.supervisor == nil, !control.stopping else { return }
      control.supervisor = Task { await self.supervise() }
    }
  }

  public func send(text: String) async throws(ClientError) {
    try await send(.text(text))
  }

  public func send(binary: [UInt8]) async throws(ClientError) {
    try await send(.binary(binary))
  }

  public func send(_ message: WebSocketMessage) async throws(ClientError) {
    guard let session = control.withLock({ $0.session }) else { throw .notConnected }
    try await session.send(message)
  }

  /// Sends only on the connection of this attempt (as `.opened` numbered it): a message
  /// meant for one connection, such as one naming its id, never goes out on the next one.
  /// Throws `.notConnected` if that connection is gone.
  public func send(_ message: WebSocketMessage, onAttempt attempt: Int) async throws(ClientError) {
    guard let session = control.withLock({ $0.session }), session.attempt == attempt else {
      throw .notConnected
    }
    try await session.send(message)
  }

  /// Closes for good: the close handshake if connected, no more reconnects. Returns when the
  /// client has stopped and `events` has ended.
  public func close(code: CloseCode? = .normalClosure, reason: String = "") async {
    let (session, supervisor) = control.withLock { control in
      control.stopping = true
      control.backoff?.cancel()
      return (control.session, control.supervisor)
    }
    // The caller may be the consumer, or the consumer may have stopped: pushes must not wait.
    queue.stopHoldingProducers()
    session?.close(code: code, reason: reason)
    if let supervisor { await supervisor.value } else { queue.finish() }
  }

  /// Skips the backoff wait, or drops a connection that seems stuck and reconnects at once.
  /// Does nothing without a reconnect policy.
  public func reconnectNow() {
    guard configuration.reconnect != nil else { return }
    let session = control.withLock { control -> ClientSession? in
      control.skipBackoff = true
      control.backoff?.cancel()
      return control.session
    }
    session?.abort(as: .reconnectRequested)
  }

  // MARK: Supervision

  private func supervise() async {
    var attempt = 1
    var retry = 0
    while !control.withLock({ $0.stopping }) {
      await queue.push(.connecting(attempt: attempt))
      let (disconnect, openedFor) = await connectOnce(attempt: attempt)
      await queue.push(.disconnected(disconnect))
      let (stopping, skipBackoff) = control.withLock { ($0.stopping, $0.skipBackoff) }
      // The policy alone decides whether; "reconnect now" only skips the wait.
      guard !stopping, let policy = configuration.reconnect,
        policy.shouldReconnect(after: disconnect)
      else { break }
      if let openedFor, openedFor >= policy.healthyAfter { retry = 0 }
      retry += 1
      if let limit = policy.maximumAttempts, retry > limit { break }
      attempt += 1
      if !skipBackoff {
        let delay = control.withLock {
          policy.delay(beforeRetry: retry, after: disconnect, using: &$0.random)
        }
        await queue.push(.reconnecting(after: delay, attempt: attempt))
        await waitBackoff(delay)
      }
    }
    queue.finish()
  }

  /// One connection attempt; returns why it ended and how long it was open.
  private func connectOnce(attempt: Int) async -> (Disconnect, Duration?) {
    let seed = control.withLock { control in
      control.skipBackoff = false  // a "reconnect now" applies to one wait only
      return ChaCha20Random(seededFrom: &control.random)
    }
    let connection: ClientConnection
    do {
      connection = try ClientConnection(
        url: url, options: configuration.handshake, configuration: configuration.protocolLimits,
        random: seed, compressors: ZlibCompressors())
    } catch {
      return (.invalidRequest(error), nil)
    }
    let channel: any TransportChannel
    do {
      let proxy = configuration.proxy.proxy(host: url.host, port: url.port, isSecure: url.isSecure)
      channel = try await transport.connect(
        to: url, via: proxy, tls: configuration.tls, timeout: configuration.connectTimeout)
    } catch {
      switch error {
      case .connectTimedOut(let limit): return (.timedOut(.connect(limit)), nil)
      case .tls: return (.tlsFailed(error), nil)
      default: return (.connectFailed(error), nil)
      }
    }
    let session = ClientSession(
      connection: connection, channel: channel, clock: clock, configuration: configuration,
      events: queue, attempt: attempt)
    let stopping = control.withLock { control in
      if !control.stopping { control.session = session }
      return control.stopping
    }
    if stopping {
      channel.close()
      return (.userClosed, nil)
    }
    let disconnect = await session.run()
    let openedAt = session.openedAt
    control.withLock { $0.session = nil }
    return (disconnect, openedAt.map { clock.now - $0 })
  }

  private func waitBackoff(_ delay: Duration) async {
    let clock = self.clock
    let deadline = clock.now + delay
    let task = Task { try await clock.sleep(until: deadline) }
    let cancelled = control.withLock { control in
      control.backoff = task
      return control.stopping || control.skipBackoff
    }
    if cancelled { task.cancel() }
    _ = try? await task.value
    control.withLock { $0.backoff = nil }
  }

  /// The client's events, in order. Ends when the client has stopped for good.
  public struct Events: AsyncSequence, Sendable {
    let queue: EventQueue<ClientEvent>

    public struct AsyncIterator: AsyncIteratorProtocol {
      let queue: EventQueue<ClientEvent>
      public mutating func next() async -> ClientEvent? { await queue.next() }

      /// What `for await` calls: it stays on the caller's executor, so an event already in
      /// hand costs no hop to another one and back.
      public mutating func next(isolation actor: isolated (any Actor)?) async -> ClientEvent? {
        await queue.next()
      }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(queue: queue) }
  }
}
