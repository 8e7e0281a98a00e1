import CommandLineValues
import Foundation
import Logging
import QnA
import QnAStore

/// The room's state, owned by the fan-out's one task, which runs `handle` for each command in
/// turn (`RoomFanOut`). Nothing else touches it: timers and the snapshot's pages run in tasks
/// of their own that only post commands back.
///
/// A socket in the room moves through its standing top to bottom:
/// 1. `snapshotting`: new, or too far behind for a catch-up, it is sent the room's snapshot
///    page by page, paced to its reading; deltas wait.
/// 2. `behind(seq)`: it has the room up to `seq` (its snapshot, the `since` of its join, or the
///    last broadcast before it stopped reading). A catch-up, once it reads, sends what changed
///    since, merged; a read the store failed is tried again.
/// 3. `current`: it takes every broadcast; one it is not reading for puts it back `behind`.
///
/// The room: a change schedules a flush (at once after a quiet spell, else when the window
/// ends); a flush reads what changed once per audience, sends it to every current socket, and
/// catches up those behind. A read the store failed is tried again after `retryPause`.
final class RoomWorker {
  enum Standing: Equatable {
    case snapshotting
    case behind(Int)
    case current
  }

  struct Member {
    var connection: SocketConnection
    var standing: Standing
  }

  /// How long an unhurried change (a word cloud's results) may wait for its broadcast.
  static let unhurried = Duration.seconds(1)
  /// Log rows a catch-up reads at most; further behind, a snapshot is cheaper.
  static let catchUpLimit = 5000
  /// How long a read the database failed waits before it is tried again: the database may be
  /// down a while, and every try is a log line.
  static let retryPause = Duration.seconds(1)

  let reads: any RoomReads
  let clock: any SessionClock
  let window: Duration
  let deflaters: CompressorPool?
  let commands: AsyncStream<RoomFanOut.Command>.Continuation
  let fanOutTime: @Sendable (Duration) -> Void
  /// Told the broadcasts' spacing when it changes (the store's vote commits follow it).
  let spaced: @Sendable (Duration) -> Void
  var spacing: Duration
  /// When the last batch of votes was committed (`RoomFanOut.committed`).
  var lastCommitted: Duration?
  /// What writing the last broadcasts cost per core; the next wait at least `costShare` times
  /// it, up to a quarter of a window more while the cores have room and up to a second while
  /// they are full (`wantedSpacing`; `nil`: the window alone spaces them). At 2,000 sockets on
  /// one core a broadcast's writes cost 12–25 ms, as much as the votes between two of them:
  /// 125 ms apart rather than 100, the deltas' writes cost a sixth less a vote, the p99
  /// within 250 ms (docs/benchmarks.md, "Answers with the delta"). Twice the cost (it was)
  /// never spaced them.
  let fanOutCost: FanOutCost?
  static let costShare = 10
  /// Cleared as a window's change is taken from the queue (`RoomFanOut.changed`).
  let pendingChange: PendingChange
  let pendingCommit: PendingChange
  let logger: Logger
  let codec = WireCodec()
  var members: [UUID: Member] = [:]
  /// The room as everyone sees it, for attendees and for presenters, read once and shared by
  /// every socket that joins while it is recent.
  var shared: [Bool: SharedSnapshot] = [:]
  var lastSent: Int?
  var epoch: UUID?
  var flushScheduled = false
  /// When the scheduled flush is due: a change in more of a hurry schedules one sooner.
  var flushDue: Duration?
  var retryScheduled = false
  var lastFlush: Duration
  /// When the oldest change not broadcast yet came in: the fan-out latency starts there.
  var changedSince: Duration?
  var audience = RoomAudience()

  init(
    reads: any RoomReads, clock: any SessionClock, window: Duration,
    deflaters: CompressorPool?, commands: AsyncStream<RoomFanOut.Command>.Continuation,
    fanOutTime: @escaping @Sendable (Duration) -> Void,
    spaced: @escaping @Sendable (Duration) -> Void = { _ in }, fanOutCost: FanOutCost?,
    pendingChange: PendingChange = PendingChange(),
    pendingCommit: PendingChange = PendingChange(), logger: Logger
  ) {
    self.pendingChange = pendingChange
    self.pendingCommit = pendingCommit
    self.reads = reads
    self.clock = clock
    self.window = window
    self.deflaters = deflaters
    self.commands = commands
    self.fanOutTime = fanOutTime
    self.spaced = spaced
    spacing = window
    self.fanOutCost = fanOutCost
    self.logger = logger
    lastFlush = clock.now - window
  }

  func run(_ stream: AsyncStream<RoomFanOut.Command>) async {
    for await command in stream {
      do throws(StoreError) {
        try await handle(command)
      } catch {
        logger.error("room: \(error)")
      }
    }
  }

  func handle(_ command: RoomFanOut.Command) async throws(StoreError) {
    switch command {
    case .join(let connection, let join, let attendee):
      // A socket whose snapshot is on its way is brought level by it and the catch-up after
      // it: its joins meanwhile cost the room nothing.
      guard members[connection.id]?.standing != .snapshotting else { return }
      connection.isCompact = join.counts == true
      if audience.arrived(connection) { commands.yield(.audience) }
      try await welcome(connection, join, attendee: attendee)
    case .leave(let id):
      members[id] = nil
      audience.left(id)
    case .audience: audience.tell(codec: codec, deflaters: deflaters)
    case .headCount(let count):
      audience.counted(count)
      audience.tell(codec: codec, deflaters: deflaters)
    case .snapshotSent(let connection, let seq): try await caughtUp(connection, from: seq)
    case .changed(let urgent):
      if !urgent { pendingChange.taken() }
      if changedSince == nil { changedSince = clock.now }
      scheduleFlush(urgent: urgent)
    case .committed:
      pendingCommit.taken()
      if changedSince == nil { changedSince = clock.now }
      // In step: this batch lingered about as long as the broadcasts are apart.
      let inStep = lastCommitted.map { clock.now - $0 >= spacing * 3 / 4 } ?? true
      lastCommitted = clock.now
      scheduleFlush(urgent: false, inStep: inStep)
    case .changedUnhurried:
      if changedSince == nil { changedSince = clock.now }
      scheduleFlush(urgent: false, pace: max(window, Self.unhurried))
    case .flush:
      flushScheduled = false
      flushDue = nil
      try await flush()
    case .retryBehind:
      retryScheduled = false
      try await catchUpBehind()
    }
  }

  /// The room's epoch and the last sequence number broadcast, read once.
  func current() async throws(StoreError) -> (epoch: UUID, seq: Int) {
    if let epoch, let lastSent { return (epoch, lastSent) }
    let fresh = (try await reads.roomEpoch(), try await reads.currentSeq())
    epoch = fresh.0
    lastSent = fresh.1
    return fresh
  }

  /// A joining socket gets what changed since the sequence it has seen, or the whole room,
  /// then every broadcast from the next sequence on. One that is current already gets
  /// nothing more (its `joined` answered it).
  private func welcome(_ connection: SocketConnection, _ join: Join, attendee: UUID?)
    async throws(StoreError)
  {
    let epoch: UUID
    let seq: Int
    do {
      (epoch, seq) = try await current()
    } catch {
      // The room's sequence could not be read: the join is tried again in a moment.
      retryLater(.join(connection, join, attendee: attendee))
      throw error
    }
    members[connection.id] = nil
    if let since = join.since, join.epoch == epoch, since <= seq, seq - since <= Self.catchUpLimit {
      // Behind until its catch-up is sent: a read that fails is tried again.
      members[connection.id] = Member(connection: connection, standing: .behind(since))
      try await catchUpBehind()
      return
    }
    do {
      try await sendSnapshot(to: connection, attendee: attendee, epoch: epoch)
    } catch {
      // The room could not be read: the join is tried again in a moment.
      retryLater(.join(connection, join, attendee: attendee))
      throw error
    }
  }

  /// The room everyone sees is read here, in turn, once while it is recent; the socket's
  /// pages go out from a task of their own as it reads them (`SnapshotDelivery`), so a
  /// reader that is not reading costs the room nothing past its first page.
  func sendSnapshot(to connection: SocketConnection, attendee: UUID?, epoch: UUID)
    async throws(StoreError)
  {
    let snapshot = try await sharedSnapshot(presenter: connection.isPresenter, epoch: epoch)
    members[connection.id] = Member(connection: connection, standing: .snapshotting)
    let delivery = SnapshotDelivery(
      connection: connection, attendee: attendee, snapshot: snapshot, reads: reads,
      deflaters: deflaters, commands: commands, logger: logger)
    Task { await delivery.run() }
  }

  private func sharedSnapshot(presenter: Bool, epoch: UUID) async throws(StoreError)
    -> SharedSnapshot
  {
    // A large room (one whose reading costs) is reused a while after it changed: joiners
    // catch up from it, and a crowd joining during a vote storm costs a read now and then,
    // not one per change. A small one is read again whenever it changed.
    if let cached = shared[presenter], cached.epoch == epoch,
      clock.now - cached.readAt < cached.reusableFor,
      (lastSent ?? cached.seq) - cached.seq <= Self.catchUpLimit / 2
    {
      return cached
    }
    // Nothing changed since it was read (every change comes through this task, this
    // instance's and the others'): no need to ask the database.
    if let cached = shared[presenter], cached.epoch == epoch, changedSince == nil,
      cached.seq == lastSent
    {
      return cached
    }
    let changedTo = try await reads.currentSeq()
    if let cached = shared[presenter], cached.epoch == epoch, cached.seq == changedTo {
      return cached
    }
    // The room as of its last change, which may not be broadcast yet: the next delta then
    // repeats what the snapshot has, which changes nothing.
    let started = clock.now
    let room = try await reads.snapshot(for: nil, presenter: presenter)
    let fresh = SharedSnapshot(
      seq: room.seq, epoch: epoch, questions: room.questions, highlighted: room.highlighted,
      announcement: room.announcement, nextUp: room.nextUp, labels: room.labels,
      polls: room.polls, deflaters: deflaters, readAt: started, readCost: clock.now - started)
    shared[presenter] = fresh
    return fresh
  }
}
