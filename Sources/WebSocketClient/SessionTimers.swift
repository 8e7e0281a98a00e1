/// Every timer of one connection as a value, sans I/O: the handshake timeout, the keep-alive,
/// stall reports, the ping timeout held back while reading is paused, and the grace a
/// protocol violation's close waits for the consumer's replies. Given the time, it says what
/// is due and when it next needs waking; `ClientSession` locks, feeds it and performs.
package struct SessionTimers: Sendable {
  /// What the session must do, in this order, when a timer fires.
  package enum Action: Sendable, Equatable {
    /// No 101 arrived in time.
    case handshakeTimedOut
    /// The protocol core's own deadline (close timeouts) may have passed: let it check.
    case checkCore
    case sendPing([UInt8])
    case pingTimedOut(waited: Duration)
    /// The outstanding ping has waited this long: tell the consumer, ahead of the timeout.
    case reportStall(waited: Duration)
  }

  let pingTimeout: Duration
  let stallThreshold: Duration
  private(set) var handshakeDeadline: Duration?
  private(set) var keepAlive: KeepAlive?
  private var nextStallReport: Duration?
  /// Reading stopped because the consumer is behind: a pong may be waiting unread, so the
  /// ping timeout is held back (by one more timeout at most).
  private(set) var pausedSince: Duration?
  /// A read ended in a protocol violation, after messages the consumer may reply to: nothing
  /// else acts until the consumer has handled them, or until this.
  package private(set) var repliesDeadline: Duration?

  package init(pingTimeout: Duration, stallThreshold: Duration) {
    self.pingTimeout = pingTimeout
    self.stallThreshold = stallThreshold
  }

  // MARK: What happened

  package mutating func handshakeStarted(now: Duration, timeout: Duration) {
    handshakeDeadline = now + timeout
  }

  /// The 101 arrived: the handshake timeout ends, the keep-alive starts (if configured).
  package mutating func opened(now: Duration, pingInterval: Duration?) {
    handshakeDeadline = nil
    if let pingInterval {
      keepAlive = KeepAlive(interval: pingInterval, timeout: pingTimeout, now: now)
    }
  }

  /// A pong arrived; returns the round trip when it answers the outstanding ping.
  package mutating func pongReceived(_ payload: [UInt8], now: Duration) -> Duration? {
    guard let roundTrip = keepAlive?.pongReceived(payload, now: now) else { return nil }
    nextStallReport = nil
    return roundTrip
  }

  /// Reading paused (the consumer is behind); false if it already was.
  package mutating func paused(now: Duration) -> Bool {
    guard pausedSince == nil else { return false }
    pausedSince = now
    return true
  }

  /// Reading resumes: the time it stood still no longer counts against the ping. Returns
  /// false if it was not paused.
  package mutating func resumed(now: Duration) -> Bool {
    guard let since = pausedSince else { return false }
    keepAlive?.postpone(by: min(now - since, pingTimeout))
    pausedSince = nil
    return true
  }

  /// A violation waits for the consumer's replies until `grace` from now; false if one
  /// already waits.
  package mutating func awaitReplies(now: Duration, grace: Duration) -> Bool {
    guard repliesDeadline == nil else { return false }
    repliesDeadline = now + grace
    return true
  }

  /// The consumer has handled the messages before the violation (or the user closed).
  mutating func repliesHandled() { repliesDeadline = nil }

  // MARK: Time

  /// What is due at `now`, in order. `isOpen`: the connection is open (keep-alive applies).
  package mutating func due(now: Duration, isOpen: Bool) -> [Action] {
    if let repliesDeadline {
      // The core's deadline handling would fail the held violation: wait for the replies.
      guard now >= repliesDeadline else { return [] }
      self.repliesDeadline = nil
    }
    if let handshakeDeadline, now >= handshakeDeadline { return [.handshakeTimedOut] }
    var actions: [Action] = [.checkCore]
    guard isOpen, var keepAlive else { return actions }
    if pausedSince != nil {
      // Paused, a pong may wait unread: the timeout is held back, by one more timeout at
      // most (both ends may be stuck writing to each other).
      if let waited = keepAlive.waitingForPong(now: now),
        now >= keepAlive.deadline + pingTimeout
      {
        actions.append(.pingTimedOut(waited: waited))
      }
      return actions
    }
    switch keepAlive.poll(now: now) {
    case .sendPing(let payload): actions.append(.sendPing(payload))
    case .timedOut(let waited):
      self.keepAlive = keepAlive
      return actions + [.pingTimedOut(waited: waited)]
    case nil: break
    }
    self.keepAlive = keepAlive
    if let waited = keepAlive.waitingForPong(now: now), waited >= stallThreshold,
      now >= (nextStallReport ?? now)
    {
      nextStallReport = now + .seconds(1)
      actions.append(.reportStall(waited: waited))
    }
    return actions
  }

  /// When `due` must next be called, given the core's own deadline; `nil` for never.
  package func nextDeadline(now: Duration, coreDeadline: Duration?, isOpen: Bool) -> Duration? {
    // Nothing else acts before the replies' deadline (see `due`).
    if let repliesDeadline { return repliesDeadline }
    var deadlines = [handshakeDeadline, coreDeadline].compactMap { $0 }
    if let keepAlive, isOpen {
      let waited = keepAlive.waitingForPong(now: now)
      if pausedSince != nil {
        // `resumed` postpones; until then only the held-back timeout.
        if waited != nil { deadlines.append(keepAlive.deadline + pingTimeout) }
      } else {
        deadlines.append(keepAlive.deadline)
        if let nextStallReport {
          deadlines.append(nextStallReport)
        } else if let waited {
          // Wake when the unanswered ping crosses the stall threshold, to report it.
          deadlines.append(now + max(.zero, stallThreshold - waited))
        }
      }
    }
    return deadlines.min()
  }
}
