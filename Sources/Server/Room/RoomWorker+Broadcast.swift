import Foundation
import QnA
import QnAStore

/// Broadcasting and catching up: every current socket gets each change once, in order; a
/// socket is marked behind until its catch-up is sent, never before, so no change is lost to
/// a socket that stopped reading or to a read the store failed, even in a room where nothing
/// else happens.
extension RoomWorker {
  /// `pace`: how long after the last flush this change may go (the window, or a second for
  /// an unhurried one). A change in more of a hurry than the flush scheduled schedules one
  /// sooner; the later one then finds less (or nothing) to send.
  /// `inStep`: a batch of votes committed about as long after the last as the broadcasts
  /// are apart (the store lingers as long: `spaced`): it may go a quarter of the spacing
  /// early, never before the window, so that a broadcast out of step with the commits comes
  /// into step (each then follows its commit at once). Commits that come faster (batches
  /// full before their linger) wait the whole spacing.
  func scheduleFlush(urgent: Bool, pace: Duration? = nil, inStep: Bool = false) {
    if urgent {
      // Next in turn, window or not. A flush already waiting finds less (or nothing) to send.
      commands.yield(.flush)
      return
    }
    let spacing = space(wantedSpacing())
    let due = lastFlush + max(pace ?? window, inStep ? spacing * 3 / 4 : spacing)
    if flushScheduled, let flushDue, flushDue <= due { return }
    flushScheduled = true
    flushDue = due
    // Leading edge: after a quiet spell the change goes out at once.
    if due > clock.now {
      schedule(.flush, at: due)
    } else {
      commands.yield(.flush)
    }
  }

  /// How far apart the room's broadcasts should be now: a room whose broadcasts cost more
  /// to write waits longer between them (`FanOutCost`, `costShare` times the cost), up to a
  /// quarter of a window more while the cores have room, so that every screen still changes
  /// within 250 ms of a vote (`ServerBenchmarks storm`), and up to the unhurried second while
  /// they are full. A room whose writes cost little is not held back, since waiting would
  /// free nothing.
  func wantedSpacing() -> Duration {
    let stretch = fanOutCost?.stretch ?? 1
    let cost = (fanOutCost?.value ?? .zero) * Self.costShare * stretch
    let limit = stretch > 1 ? Self.unhurried : window * 5 / 4
    return max(window, min(limit, cost))
  }

  /// The broadcasts' spacing, for one that `wanted` this: kept until the cost moves it by
  /// more than a tenth, or back to the window. Each change is told to the store, whose vote
  /// commits linger as long: a spacing that moved with every broadcast's cost left commits
  /// and broadcasts out of step (a p99 of 0.5 s at 150 ms).
  func space(_ wanted: Duration) -> Duration {
    let moved = wanted > spacing ? wanted - spacing : spacing - wanted
    guard wanted == window ? spacing != window : moved * 10 > spacing else { return spacing }
    spacing = wanted
    spaced(spacing)
    return spacing
  }

  func flush() async throws(StoreError) {
    lastFlush = clock.now
    // Whatever changed so far is in what this flush reads (or was in an earlier one).
    let since = changedSince
    changedSince = nil
    do {
      try await broadcast(since: since)
      // The stretch followed the load as the broadcast began: the store's commits follow it
      // now, not at the next change (a batch lingering a stale second would wait it out).
      _ = space(wantedSpacing())
    } catch {
      // What changed still reaches the room: read again in a moment, whether or not
      // anything else changes meanwhile.
      changedSince = changedSince ?? since ?? clock.now
      retryLater(.flush)
      throw error
    }
  }

  private func broadcast(since: Duration?) async throws(StoreError) {
    let (_, sent) = try await current()
    let seq = try await reads.currentSeq()
    guard seq > sent else { return }
    // Two audiences: attendees, and presenters (who see every question); each delta is
    // read once for all of its audience, and sent once every read is in (a read that
    // fails leaves the whole range to the next flush).
    var deliveries: [(changes: RoomChanges, audience: [SocketConnection])] = []
    var notReading: [UUID] = []
    // Both audiences in one pass over the room.
    var audiences: (attendees: [SocketConnection], presenters: [SocketConnection]) = ([], [])
    for (id, member) in members where member.standing == .current {
      let connection = member.connection
      if connection.isCongested {
        // Not reading: what changes waits for it, merged, until it reads again.
        notReading.append(id)
      } else if connection.isPresenter {
        audiences.presenters.append(connection)
      } else {
        audiences.attendees.append(connection)
      }
    }
    for (presenter, audience) in [(false, audiences.attendees), (true, audiences.presenters)]
    where !audience.isEmpty {
      let changes = try await reads.changes(after: sent, upTo: seq, presenter: presenter)
      deliveries.append((changes, audience))
    }
    lastSent = seq
    for id in notReading { members[id]?.standing = .behind(sent) }
    fanOutCost?.beginBroadcast()
    for delivery in deliveries { send(delivery.changes, to: delivery.audience) }
    if let since, !members.isEmpty {
      fanOutTime(clock.now - since)
    }
    try await catchUpBehind()
  }

  /// One broadcast: encoded once per format its sockets asked for, framed once per framing,
  /// and handed to each event loop once for all of its sockets.
  func send(_ changes: RoomChanges, to sockets: [SocketConnection]) {
    var byFormat: (compact: [SocketConnection], full: [SocketConnection]) = ([], [])
    for socket in sockets {
      if socket.isCompact { byFormat.compact.append(socket) } else { byFormat.full.append(socket) }
    }
    for (compact, group) in [(true, byFormat.compact), (false, byFormat.full)]
    where !group.isEmpty {
      let messages = Broadcast.pages(
        of: compact ? changes.compact : changes.full, codec: codec, deflaters: deflaters)
      Broadcast.send(messages, to: group, cost: fanOutCost)
    }
  }

  /// The snapshot as of `seq` is queued: what was broadcast since goes next, then the
  /// socket takes every broadcast.
  func caughtUp(_ connection: SocketConnection, from seq: Int) async throws(StoreError) {
    guard members[connection.id]?.standing == .snapshotting, !connection.isFinished else {
      return
    }
    members[connection.id]?.standing = .behind(seq)
    try await catchUpBehind()
  }

  /// Brings the sockets that were behind level, those that read now: one catch-up each,
  /// from where they stopped, read once per starting point.
  func catchUpBehind() async throws(StoreError) {
    let waiting = members.values.compactMap { member -> (SocketConnection, Int)? in
      guard case .behind(let seq) = member.standing else { return nil }
      return (member.connection, seq)
    }
    guard !waiting.isEmpty else { return }
    var stillWaiting = false
    do {
      let (epoch, sent) = try await current()
      var groups: [Int: [Bool: [SocketConnection]]] = [:]
      for (connection, behind) in waiting {
        if connection.isCongested {
          stillWaiting = true
          continue
        }
        if sent - behind > Self.catchUpLimit {
          // Too far behind for a catch-up (a slow reader of a busy room): the room again, as
          // it is now.
          try await sendSnapshot(to: connection, attendee: connection.attendee, epoch: epoch)
          continue
        }
        guard behind < sent else {
          members[connection.id]?.standing = .current
          continue
        }
        groups[behind, default: [:]][connection.isPresenter, default: []].append(connection)
      }
      for (behind, audiences) in groups {
        for (presenter, sockets) in audiences {
          let changes = try await reads.changes(after: behind, upTo: sent, presenter: presenter)
          send(changes, to: sockets)
          for socket in sockets { members[socket.id]?.standing = .current }
        }
      }
    } catch {
      retryLater(.retryBehind)
      throw error
    }
    guard stillWaiting, !retryScheduled else { return }
    retryScheduled = true
    schedule(.retryBehind, after: max(window, .milliseconds(50)))
  }

  /// `command` again after `retryPause`, once: a flush or a catch-up the database failed, or
  /// a join whose room could not be read (unless its socket is gone by then).
  func retryLater(_ command: RoomFanOut.Command) {
    switch command {
    case .flush:
      guard !flushScheduled else { return }
      flushScheduled = true
      flushDue = clock.now + Self.retryPause
    case .retryBehind:
      guard !retryScheduled else { return }
      retryScheduled = true
    default: break
    }
    schedule(command, after: Self.retryPause)
  }

  /// `command` into the queue after `pause`, from a task that touches no state. A join whose
  /// socket closed meanwhile is dropped.
  func schedule(_ command: RoomFanOut.Command, after pause: Duration) {
    // The deadline from now, not from whenever the task starts.
    schedule(command, at: clock.now + pause)
  }

  /// `command` into the queue at `deadline` on the room's clock.
  func schedule(_ command: RoomFanOut.Command, at deadline: Duration) {
    let commands = self.commands
    let clock = self.clock
    Task {
      try? await clock.sleep(until: deadline)
      if case .join(let connection, _, _) = command, connection.isFinished { return }
      commands.yield(command)
    }
  }
}
