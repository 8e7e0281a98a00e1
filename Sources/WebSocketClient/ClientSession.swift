import CommandLineValues
import NIOCore
import RFC6455
import Synchronization

/// One connection, from the handshake request to the end of TCP: the protocol core and the
/// timers (`SessionTimers`, a value that says what is due when). Bytes are parsed on the
/// thread that read them (NIO's event loop) and their events go straight to the consumer's
/// queue: no task sits between the socket and the consumer, which saves a thread wake-up per
/// read. A lock serializes reads, sends and timers; nothing under it waits.
package final class ClientSession: TransportSink, Sendable {
  private struct State {
    var connection: ClientConnection
    var timers: SessionTimers
    /// The one task sleeping until the timers' next deadline.
    var timer: (task: Task<Void, Never>, deadline: Duration)?
    var outcome: Disconnect?
    var closeRequested = false
    var finished = false
    /// `run()`, waiting for the outcome.
    var waiter: CheckedContinuation<Disconnect, Never>?
    var openedAt: Duration?
  }

  /// The longest a violation's close waits for the consumer's replies to the messages before it.
  package static let repliesGrace = Duration.milliseconds(250)

  private let state: Mutex<State>
  private let channel: any TransportChannel
  private let clock: any SessionClock
  private let configuration: ClientConfiguration
  private let events: EventQueue<ClientEvent>
  /// Which connection attempt of its client this is (1 for the first).
  let attempt: Int

  init(
    connection: ClientConnection, channel: any TransportChannel, clock: any SessionClock,
    configuration: ClientConfiguration, events: EventQueue<ClientEvent>, attempt: Int
  ) {
    state = Mutex(
      State(
        connection: connection,
        timers: SessionTimers(
          pingTimeout: configuration.pingTimeout, stallThreshold: configuration.stallThreshold)))
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
        state.timers.handshakeStarted(now: clock.now, timeout: configuration.handshakeTimeout)
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

  package func received(_ bytes: ByteBuffer) -> Bool {
    let delivery = act { state in
      guard !state.finished else { return Delivery() }
      let now = clock.now
      let coreEvents = bytes.withUnsafeReadableBytes { state.connection.receive($0, now: now) }
      let delivery = handle(coreEvents, &state)
      if !delivery.hasRoom, state.timers.paused(now: now) { rescheduleTimer(&state) }
      return delivery
    } afterwards: { delivery in
      if delivery.awaitsReplies { events.whenDrained { [weak self] in self?.repliesHandled() } }
    }
    return delivery.hasRoom
  }

  package func readingResumes() -> Bool {
    state.withLock { state in
      // Full again: the append that filled it asked to be told of room, and that resumes.
      guard !state.finished, !events.isFull, state.timers.resumed(now: clock.now) else {
        return false
      }
      rescheduleTimer(&state)
      return true
    }
  }

  package func ended(_ failure: TransportError?) {
    act { state in
      guard !state.finished else { return Delivery() }
      if let failure {
        end(&state, transportError: failure)
        return Delivery()
      }
      let delivery = handle(state.connection.transportClosed(now: clock.now), &state)
      end(&state, as: .connectFailed(.io("the server closed the connection before answering")))
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
      state.timers.repliesHandled()
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
        state.openedAt = clock.now
        state.timers.opened(now: clock.now, pingInterval: configuration.pingInterval)
        batch.append(.opened(subprotocol: response.subprotocol, attempt: attempt))
      case .message(let message):
        batch.append(.message(message))
      case .ping:
        break  // the core queued the pong
      case .pong(let payload):
        if let roundTrip = state.timers.pongReceived(payload, now: clock.now) {
          batch.append(.roundTrip(roundTrip))
        }
      case .closed(let status):
        end(&state, as: Self.disconnect(for: status))
      }
    }
    // The messages before a violation (from this read or earlier ones) may still be with the
    // consumer: hold the close frame until it has handled them (wsc --echo echoes them).
    let awaitsReplies =
      state.connection.hasPendingViolation
      && state.timers.awaitReplies(now: clock.now, grace: Self.repliesGrace)
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
      guard state.timers.repliesDeadline != nil, !state.finished else { return }
      state.timers.repliesHandled()
      flush(&state)
      rescheduleTimer(&state)
    }
  }

  /// The timers catch up in `readingResumes`, on the reading thread: the consumer, which
  /// calls this, would otherwise wait here for the lock that thread holds while it parses.
  private func consumerCaughtUp() { channel.resumeReading() }

  private static func disconnect(for status: CloseStatus) -> Disconnect {
    guard case .handshake(let error) = status.error else { return .closed(status) }
    switch error {
    case .unexpectedStatus: return .refused(error)
    case .connectionClosed: return .connectFailed(.io(error.description))
    default: return .handshakeFailed(error)
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
    var delivery = Delivery()
    for action in state.timers.due(now: now, isOpen: state.connection.state == .open) {
      switch action {
      case .handshakeTimedOut:
        end(&state, as: .timedOut(.handshake(configuration.handshakeTimeout)))
      case .checkCore:
        delivery = handle(state.connection.handleDeadline(now: now), &state)
      case .sendPing(let payload):
        try? state.connection.ping(payload: payload)
        flush(&state)
      case .pingTimedOut(let waited):
        failForPingTimeout(waited: waited, &state)
      case .reportStall(let waited):
        delivery.stalled = waited
      }
      if state.finished { return delivery }
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
    let next = state.timers.nextDeadline(
      now: clock.now, coreDeadline: state.connection.deadline,
      isOpen: state.connection.state == .open)
    guard let next else {
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
    state.timers.repliesDeadline == nil
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
    case .tls: end(&state, as: .tlsFailed(error))
    default:
      let status = state.connection.transportClosed(now: clock.now)
      if case .closed(let closed) = status.first, state.connection.handshake != nil {
        end(&state, as: .closed(closed))
      } else {
        end(&state, as: .connectFailed(error))
      }
    }
  }
}
