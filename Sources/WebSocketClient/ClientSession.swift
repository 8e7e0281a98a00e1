import NIOCore
import RFC6455

/// One connection, from the handshake request to the end of TCP: the protocol core, keep-alive
/// and the timers, serialized by the actor. Returns why it ended.
actor ClientSession {
  private var connection: ClientConnection
  private var keepAlive: KeepAlive?
  private let channel: any TransportChannel
  private let clock: any SessionClock
  private let configuration: ClientConfiguration
  private let events: EventQueue<ClientEvent>
  /// Which connection attempt of its client this is (1 for the first).
  nonisolated let attempt: Int
  private let onRoundTrip: @Sendable (Duration) -> Void

  private var handshakeDeadline: Duration?
  private var timer: (task: Task<Void, Never>, deadline: Duration)?
  private var nextStallReport: Duration?
  private var outcome: Disconnect?
  private var closeRequested = false
  private var finished = false
  /// The reader is handing events to a full queue: it is not reading, so a pong may be
  /// waiting unread and the ping timeout must not fire.
  private var deliveringSince: Duration?
  private(set) var openedAt: Duration?

  init(
    connection: ClientConnection, channel: any TransportChannel, clock: any SessionClock,
    configuration: ClientConfiguration, events: EventQueue<ClientEvent>, attempt: Int,
    onRoundTrip: @escaping @Sendable (Duration) -> Void = { _ in }
  ) {
    self.onRoundTrip = onRoundTrip
    self.connection = connection
    self.channel = channel
    self.clock = clock
    self.configuration = configuration
    self.events = events
    self.attempt = attempt
  }

  func run() async -> Disconnect {
    flush()
    handshakeDeadline = clock.now + configuration.handshakeTimeout
    rescheduleTimer()
    while !finished {
      let chunk: ByteBuffer?
      do {
        chunk = try await channel.read()
      } catch {
        end(transportError: error)
        break
      }
      if finished { break }
      if let chunk {
        let now = clock.now
        await handle(chunk.withUnsafeReadableBytes { connection.receive($0, now: now) })
      } else {
        await handle(connection.transportClosed(now: clock.now))
      }
    }
    timer?.task.cancel()
    channel.close()
    return outcome ?? .connectFailed("connection ended")
  }

  // MARK: Commands

  func send(_ message: WebSocketMessage) async throws(ClientError) {
    guard connection.state == .open, !finished else {
      throw connection.state == .closing ? .closing : .notConnected
    }
    do throws(SendError) {
      switch message.kind {
      case .text: try connection.send(text: message.text ?? "")
      case .binary: try connection.send(binary: message.data)
      }
    } catch {
      throw .invalid(error)
    }
    // Ordered now. Below the transport's high-water mark the send is done; past it, wait
    // for this write to reach the socket, so a fast sender cannot outrun the network.
    guard !channel.isWritable else {
      flush()
      return
    }
    let frames = connection.takeOutbound()
    let failure: TransportError? = await withCheckedContinuation { continuation in
      channel.write(frames) { continuation.resume(returning: $0) }
    }
    if let failure { throw .connectionLost(failure.description) }
  }

  func close(code: CloseCode?, reason: String) async {
    closeRequested = true
    do {
      await handle(try connection.close(code: code, reason: reason, now: clock.now))
    } catch {
      await handle(connection.transportClosed(now: clock.now))
    }
  }

  /// Drops TCP at once (a user's "reconnect now", or the client shutting down hard).
  func abort(as disconnect: Disconnect) {
    end(as: disconnect)
  }

  // MARK: Events from the core

  private func handle(_ coreEvents: [WebSocketEvent]) async {
    var batch: [ClientEvent] = []
    batch.reserveCapacity(coreEvents.count)
    for event in coreEvents {
      switch event {
      case .opened(let response):
        handshakeDeadline = nil
        openedAt = clock.now
        if let interval = configuration.pingInterval {
          keepAlive = KeepAlive(
            interval: interval, timeout: configuration.pingTimeout, now: clock.now)
        }
        batch.append(.opened(subprotocol: response.subprotocol, attempt: attempt))
      case .message(let message):
        batch.append(.message(message))
      case .ping:
        break  // the core queued the pong
      case .pong(let payload):
        if let roundTrip = keepAlive?.pongReceived(payload, now: clock.now) {
          nextStallReport = nil
          onRoundTrip(roundTrip)
          batch.append(.roundTrip(roundTrip))
        }
      case .closed(let status):
        end(as: Self.disconnect(for: status))
      }
    }
    // Replies (pongs, close echoes) go out before we possibly wait on a slow consumer.
    flush()
    await deliver(batch)
    rescheduleTimer()
  }

  /// Hands the events of one read to the consumer in one step.
  private func deliver(_ batch: [ClientEvent]) async {
    guard !batch.isEmpty else { return }
    if events.isFull, deliveringSince == nil { deliveringSince = clock.now }
    await events.push(contentsOf: batch)
    if let since = deliveringSince {
      keepAlive?.postpone(by: clock.now - since)
      deliveringSince = nil
    }
  }

  private static func disconnect(for status: CloseStatus) -> Disconnect {
    guard case .handshake(let error) = status.error else { return .closed(status) }
    switch error {
    case .unexpectedStatus(let code, _, _): return .refused(status: code)
    case .connectionClosed: return .connectFailed(error.description)
    default: return .handshakeFailed(error.description)
    }
  }

  // MARK: Timers

  /// `deadline` identifies the timer that fired: one cancelled after it woke must not act
  /// for (or clear) the timer that replaced it.
  private func tick(for deadline: Duration) async {
    guard timer?.deadline == deadline else { return }
    timer = nil
    let now = clock.now
    if let handshakeDeadline, now >= handshakeDeadline {
      end(as: .timedOut("no handshake response within \(configuration.handshakeTimeout)"))
      return
    }
    await handle(connection.handleDeadline(now: now))
    if finished { return }
    if connection.state == .open, deliveringSince == nil, var keepAlive {
      let action = keepAlive.poll(now: now)
      self.keepAlive = keepAlive
      switch action {
      case .sendPing(let payload):
        try? connection.ping(payload: payload)
        flush()
      case .timedOut(let waited):
        // The link is presumably dead: say why, best effort, and drop it without waiting.
        _ = try? connection.close(code: .internalError, reason: "ping timeout", now: now)
        flush()
        end(as: .pingTimeout(waited: waited))
        return
      case nil:
        break
      }
      if let waited = keepAlive.waitingForPong(now: now), waited >= configuration.stallThreshold,
        now >= (nextStallReport ?? now)
      {
        nextStallReport = now + .seconds(1)
        // Never wait here: a blocked tick would hold every timer (ping timeout included).
        events.tryPush(.stalled(waited: waited))
      }
    }
    rescheduleTimer()
  }

  private func rescheduleTimer() {
    guard !finished else { return }
    var deadlines = [handshakeDeadline, connection.deadline, nextStallReport].compactMap { $0 }
    if let keepAlive, connection.state == .open {
      deadlines.append(keepAlive.deadline)
      // Wake when an unanswered ping crosses the stall threshold, to report it.
      if nextStallReport == nil, let waited = keepAlive.waitingForPong(now: clock.now) {
        deadlines.append(clock.now + max(.zero, configuration.stallThreshold - waited))
      }
    }
    if deliveringSince != nil { deadlines.append(clock.now + .seconds(1)) }
    guard let next = deadlines.min() else {
      timer?.task.cancel()
      timer = nil
      return
    }
    if let timer, timer.deadline == next { return }
    timer?.task.cancel()
    let clock = self.clock
    timer = (
      Task { [weak self] in
        do { try await clock.sleep(until: next) } catch { return }
        await self?.tick(for: next)
      }, next
    )
  }

  // MARK: Ending

  private func flush() {
    let frames = connection.takeOutbound()
    if !frames.isEmpty { channel.write(frames, completion: nil) }
  }

  private func end(as disconnect: Disconnect) {
    guard !finished else { return }
    // A close the user asked for is reported as such, unless the peer broke the protocol
    // first: that is what the user needs to hear.
    var isViolation = false
    if case .closed(let status) = disconnect, case .protocolViolation = status.error {
      isViolation = true
    }
    outcome = closeRequested && !isViolation ? .userClosed : disconnect
    finished = true
    timer?.task.cancel()
    timer = nil
    channel.close()
  }

  private func end(transportError error: TransportError) {
    switch error {
    case .tls(let detail): end(as: .tlsFailed(detail))
    default:
      let status = connection.transportClosed(now: clock.now)
      if case .closed(let closed) = status.first, connection.handshake != nil {
        end(as: .closed(closed))
      } else {
        end(as: .connectFailed(error.description))
      }
    }
  }
}
