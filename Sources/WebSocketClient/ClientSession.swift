import NIOCore
import RFC6455
import Synchronization

/// One connection, from the handshake request to the end of TCP: the protocol core, keep-alive
/// and the timers. Bytes are parsed on the thread that read them (NIO's event loop) and their
/// events go straight to the consumer's queue: no task sits between the socket and the
/// consumer, which saves a thread wake-up per read. A lock serializes reads, sends and timers;
/// nothing under it waits.
final class ClientSession: TransportSink, Sendable {
  private struct State {
    var connection: ClientConnection
    var keepAlive: KeepAlive?
    var handshakeDeadline: Duration?
    var timer: (task: Task<Void, Never>, deadline: Duration)?
    var nextStallReport: Duration?
    var outcome: Disconnect?
    var closeRequested = false
    var finished = false
    /// `run()`, waiting for the outcome.
    var waiter: CheckedContinuation<Disconnect, Never>?
    /// Reading stopped because the consumer is behind: a pong may be waiting unread, so the
    /// ping timeout is held back (by one more timeout at most).
    var pausedSince: Duration?
    var openedAt: Duration?
    /// A read ended in a protocol violation, after messages the consumer may reply to (an
    /// echo, say): its close frame waits until the consumer has handled them, or until this.
    var repliesDeadline: Duration?
  }

  /// The longest a violation's close waits for the consumer's replies to the messages before it.
  static let repliesGrace = Duration.milliseconds(250)

  private let state: Mutex<State>
  private let channel: any TransportChannel
  private let clock: any SessionClock
  private let configuration: ClientConfiguration
  private let events: EventQueue<ClientEvent>
  /// Which connection attempt of its client this is (1 for the first).
  let attempt: Int
  private let onRoundTrip: @Sendable (Duration) -> Void

  init(
    connection: ClientConnection, channel: any TransportChannel, clock: any SessionClock,
    configuration: ClientConfiguration, events: EventQueue<ClientEvent>, attempt: Int,
    onRoundTrip: @escaping @Sendable (Duration) -> Void = { _ in }
  ) {
    state = Mutex(State(connection: connection))
    self.onRoundTrip = onRoundTrip
    self.channel = channel
    self.clock = clock
    self.configuration = configuration
    self.events = events
    self.attempt = attempt
  }

  var openedAt: Duration? { state.withLock { $0.openedAt } }

  /// Sends the handshake, reads until the connection ends, and returns why it ended.
  func run() async -> Disconnect {
    let started = await withCheckedContinuation { continuation in
      let ended = state.withLock { state -> Disconnect? in
        guard !state.finished else { return state.outcome }
        state.waiter = continuation
        state.handshakeDeadline = clock.now + configuration.handshakeTimeout
        flush(&state)
        rescheduleTimer(&state)
        return nil
      }
      if let ended {
        continuation.resume(returning: ended)
      } else {
        channel.start(delivering: self)
      }
    }
    return started
  }

  // MARK: The transport's calls

  func received(_ bytes: ByteBuffer) -> Bool {
    let delivery = act { state in
      guard !state.finished else { return Delivery() }
      let now = clock.now
      let coreEvents = bytes.withUnsafeReadableBytes { state.connection.receive($0, now: now) }
      let delivery = handle(coreEvents, &state)
      if !delivery.hasRoom, state.pausedSince == nil {
        state.pausedSince = now
        rescheduleTimer(&state)
      }
      return delivery
    } afterwards: { delivery in
      if delivery.awaitsReplies { events.whenDrained { [weak self] in self?.repliesHandled() } }
    }
    return delivery.hasRoom
  }

  func ended(_ failure: TransportError?) {
    act { state in
      guard !state.finished else { return Delivery() }
      if let failure {
        end(&state, transportError: failure)
        return Delivery()
      }
      let delivery = handle(state.connection.transportClosed(now: clock.now), &state)
      end(&state, as: .connectFailed("connection ended"))
      return delivery
    }
  }

  // MARK: Commands

  func send(_ message: WebSocketMessage) async throws(ClientError) {
    // No continuation on the common path: suspending, even briefly, costs a task hop.
    let pendingWrite = try state.withLock { state throws(ClientError) -> WriteCompletion? in
      guard state.connection.state == .open, !state.finished else {
        throw state.connection.state == .closing ? .closing : .notConnected
      }
      do throws(SendError) {
        switch message.kind {
        case .text: try state.connection.send(text: message.text ?? "")
        case .binary: try state.connection.send(binary: message.data)
        }
      } catch {
        throw .invalid(error)
      }
      // Ordered now (written under the lock). Below the transport's high-water mark the send
      // is done; past it, wait for this write to reach the socket, so a fast sender cannot
      // outrun the network.
      guard !channel.isWritable else {
        flush(&state)
        return nil
      }
      let completion = WriteCompletion()
      channel.write(takeFrames(&state)) { completion.complete($0) }
      return completion
    }
    if let failure = await pendingWrite?.wait() { throw .connectionLost(failure.description) }
  }

  func close(code: CloseCode?, reason: String) {
    act { state in
      state.closeRequested = true
      state.repliesDeadline = nil
      let now = clock.now
      do {
        return handle(try state.connection.close(code: code, reason: reason, now: now), &state)
      } catch {
        return handle(state.connection.transportClosed(now: now), &state)
      }
    }
  }

  /// Drops TCP at once (a user's "reconnect now", or the client shutting down hard).
  func abort(as disconnect: Disconnect) {
    act { state in
      end(&state, as: disconnect)
      return Delivery()
    }
  }

  // MARK: Events from the core

  /// Events queued for the consumer: wake it once the lock is released.
  private struct Delivery {
    /// False when the consumer is behind and reading should stop.
    var hasRoom = true
    var wake = EventQueue<ClientEvent>.ConsumerWake(consumer: nil)
    /// A violation follows the messages delivered so far: tell `repliesHandled` once the
    /// consumer has handled them.
    var awaitsReplies = false
    /// An unanswered ping to report, this long.
    var stalled: Duration?
  }

  /// Acts on the core's events and queues them for the consumer.
  private func handle(_ coreEvents: [WebSocketEvent], _ state: inout State) -> Delivery {
    var batch: [ClientEvent] = []
    batch.reserveCapacity(coreEvents.count)
    for event in coreEvents {
      switch event {
      case .opened(let response):
        state.handshakeDeadline = nil
        state.openedAt = clock.now
        if let interval = configuration.pingInterval {
          state.keepAlive = KeepAlive(
            interval: interval, timeout: configuration.pingTimeout, now: clock.now)
        }
        batch.append(.opened(subprotocol: response.subprotocol, attempt: attempt))
      case .message(let message):
        batch.append(.message(message))
      case .ping:
        break  // the core queued the pong
      case .pong(let payload):
        if let roundTrip = state.keepAlive?.pongReceived(payload, now: clock.now) {
          state.nextStallReport = nil
          onRoundTrip(roundTrip)
          batch.append(.roundTrip(roundTrip))
        }
      case .closed(let status):
        end(&state, as: Self.disconnect(for: status))
      }
    }
    // The messages before a violation (from this read or earlier ones) may still be with the
    // consumer: hold the close frame until it has handled them (wsc --echo echoes them).
    let awaitsReplies = state.repliesDeadline == nil && state.connection.hasPendingViolation
    if awaitsReplies { state.repliesDeadline = clock.now + Self.repliesGrace }
    // Replies (pongs, close echoes) go out whether or not the consumer keeps up.
    flush(&state)
    let (hasRoom, wake) = events.append(contentsOf: batch) { [weak self] in
      self?.consumerCaughtUp()
    }
    rescheduleTimer(&state)
    return Delivery(hasRoom: hasRoom, wake: wake, awaitsReplies: awaitsReplies)
  }

  /// The consumer has handled the messages before a violation: fail the connection now.
  private func repliesHandled() {
    state.withLock { state in
      guard state.repliesDeadline != nil, !state.finished else { return }
      state.repliesDeadline = nil
      flush(&state)
      rescheduleTimer(&state)
    }
  }

  private func consumerCaughtUp() {
    let resume = state.withLock { state -> Bool in
      guard let since = state.pausedSince else { return false }
      state.keepAlive?.postpone(by: min(clock.now - since, configuration.pingTimeout))
      state.pausedSince = nil
      rescheduleTimer(&state)
      return !state.finished
    }
    if resume { channel.resumeReading() }
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
  private func tick(for deadline: Duration) {
    act { state in
      tick(for: deadline, &state)
    } afterwards: { delivery in
      // A stall report may be dropped: the next one supersedes it.
      if let waited = delivery.stalled { events.tryPush(.stalled(waited: waited)) }
    }
  }

  private func tick(for deadline: Duration, _ state: inout State) -> Delivery {
    guard state.timer?.deadline == deadline else { return Delivery() }
    state.timer = nil
    let now = clock.now
    if let repliesDeadline = state.repliesDeadline {
      // The core's deadline handling would fail the held violation: wait for the replies.
      guard now >= repliesDeadline else {
        rescheduleTimer(&state)
        return Delivery()
      }
      state.repliesDeadline = nil
    }
    if let handshakeDeadline = state.handshakeDeadline, now >= handshakeDeadline {
      end(&state, as: .timedOut("no handshake response within \(configuration.handshakeTimeout)"))
      return Delivery()
    }
    var delivery = handle(state.connection.handleDeadline(now: now), &state)
    if state.finished { return delivery }
    if state.connection.state == .open, var keepAlive = state.keepAlive {
      if state.pausedSince != nil {
        // Paused, a pong may wait unread: the timeout is held back, by one more timeout at most
        // (both ends may be stuck writing to each other).
        if let waited = keepAlive.waitingForPong(now: now),
          now >= keepAlive.deadline + configuration.pingTimeout
        {
          failForPingTimeout(waited: waited, &state)
          return delivery
        }
      } else {
        let action = keepAlive.poll(now: now)
        state.keepAlive = keepAlive
        switch action {
        case .sendPing(let payload):
          try? state.connection.ping(payload: payload)
          flush(&state)
        case .timedOut(let waited):
          failForPingTimeout(waited: waited, &state)
          return delivery
        case nil:
          break
        }
        if let waited = keepAlive.waitingForPong(now: now), waited >= configuration.stallThreshold,
          now >= (state.nextStallReport ?? now)
        {
          state.nextStallReport = now + .seconds(1)
          delivery.stalled = waited
        }
      }
    }
    rescheduleTimer(&state)
    return delivery
  }

  /// The link is presumably dead: say why, best effort, and drop it without waiting.
  private func failForPingTimeout(waited: Duration, _ state: inout State) {
    _ = try? state.connection.close(code: .internalError, reason: "ping timeout", now: clock.now)
    flush(&state)
    end(&state, as: .pingTimeout(waited: waited))
  }

  private func rescheduleTimer(_ state: inout State) {
    guard !state.finished else { return }
    let now = clock.now
    var deadlines: [Duration] = []
    if let repliesDeadline = state.repliesDeadline {
      deadlines = [repliesDeadline]  // nothing else acts before it (see `tick`)
    } else {
      deadlines = [state.handshakeDeadline, state.connection.deadline].compactMap { $0 }
      if let keepAlive = state.keepAlive, state.connection.state == .open {
        let waited = keepAlive.waitingForPong(now: now)
        if state.pausedSince != nil {
          // `consumerCaughtUp` postpones and reschedules; until then only the held-back timeout.
          if waited != nil { deadlines.append(keepAlive.deadline + configuration.pingTimeout) }
        } else {
          deadlines.append(keepAlive.deadline)
          if let next = state.nextStallReport {
            deadlines.append(next)
          } else if let waited {
            // Wake when the unanswered ping crosses the stall threshold, to report it.
            deadlines.append(now + max(.zero, configuration.stallThreshold - waited))
          }
        }
      }
    }
    guard let next = deadlines.min() else {
      state.timer?.task.cancel()
      state.timer = nil
      return
    }
    if let timer = state.timer, timer.deadline == next { return }
    state.timer?.task.cancel()
    let clock = self.clock
    state.timer = (
      Task { [weak self] in
        do { try await clock.sleep(until: next) } catch { return }
        self?.tick(for: next)
      }, next
    )
  }

  // MARK: Ending

  /// Runs `body` under the lock; then, with the lock released, wakes the consumer for the
  /// events queued, lets `afterwards` act on them, and resumes `run()` if the session ended
  /// (last, so that the consumer sees the events before the disconnect).
  @discardableResult
  private func act(
    _ body: (inout State) -> Delivery, afterwards: (Delivery) -> Void = { _ in }
  ) -> Delivery {
    let (delivery, done) = state.withLock { state in
      let delivery = body(&state)
      return (delivery, takeCompletion(&state))
    }
    delivery.wake()
    afterwards(delivery)
    done?.resume()
    return delivery
  }

  /// `run()`'s continuation and what to resume it with, once the session has ended (see
  /// `act`).
  private struct Completion {
    let waiter: CheckedContinuation<Disconnect, Never>
    let outcome: Disconnect
    func resume() { waiter.resume(returning: outcome) }
  }

  private func takeCompletion(_ state: inout State) -> Completion? {
    guard state.finished, let waiter = state.waiter, let outcome = state.outcome else {
      return nil
    }
    state.waiter = nil
    return Completion(waiter: waiter, outcome: outcome)
  }

  private func flush(_ state: inout State) {
    let frames = takeFrames(&state)
    if !frames.isEmpty { channel.write(frames, completion: nil) }
  }

  /// What to write now: everything, except a violation's close while replies are awaited.
  private func takeFrames(_ state: inout State) -> [[UInt8]] {
    state.repliesDeadline == nil
      ? state.connection.takeOutbound() : state.connection.takeReplies()
  }

  private func end(_ state: inout State, as disconnect: Disconnect) {
    guard !state.finished else { return }
    // A close the user asked for is reported as such, unless the peer broke the protocol
    // first: that is what the user needs to hear.
    var isViolation = false
    if case .closed(let status) = disconnect, case .protocolViolation = status.error {
      isViolation = true
    }
    state.outcome = state.closeRequested && !isViolation ? .userClosed : disconnect
    state.finished = true
    state.timer?.task.cancel()
    state.timer = nil
    channel.close()
  }

  private func end(_ state: inout State, transportError error: TransportError) {
    switch error {
    case .tls(let detail): end(&state, as: .tlsFailed(detail))
    default:
      let status = state.connection.transportClosed(now: clock.now)
      if case .closed(let closed) = status.first, state.connection.handshake != nil {
        end(&state, as: .closed(closed))
      } else {
        end(&state, as: .connectFailed(error.description))
      }
    }
  }
}
