import Foundation
import Logging
import NIOCore
import QnA
import QnAStore

/// The room's fan-out: who has joined, and what changed since the last broadcast, sent to
/// every joined socket as one delta. Changes are coalesced: the first change after a quiet
/// spell goes out at once, the ones after it within `window` together, so 2,000 attendees
/// voting cause a delta per window, not 2,000² messages.
///
/// A broadcast is shared work: read once per audience (attendees, presenters), encoded once
/// per format (today's, and the compact one of extension `counts`), framed and compressed
/// once per framing (`OutgoingMessage`), and handed to each event loop once for all of its
/// sockets. A socket that is not taking what it is sent gets no deltas meanwhile: once it
/// reads again, one catch-up brings it the newest state of what changed (merged, never a
/// backlog).
///
/// One task runs every command in turn, so a join's catch-up and the broadcasts around it
/// never interleave: each joined socket sees every sequence number once, in order.
package final class RoomFanOut: Sendable {
  package enum Command: Sendable {
    /// `attendee`: who the socket joined as (its questions and votes marked in its snapshot),
    /// `nil` for a socket without an identity yet.
    case join(SocketConnection, Join, attendee: UUID?)
    case leave(UUID)
    /// `urgent`: a presenter's action, which nobody should wait a window for.
    case changed(urgent: Bool)
    case flush
    /// A joining socket has every page of its snapshot as of this sequence number.
    case snapshotSent(SocketConnection, seq: Int)
    /// Sockets whose deltas wait for them to read: see whether they do now.
    case retryBehind
    /// Tell the screens that need it the room's size (extension `audience`).
    case audience
    /// The session's head count, as just read (`HeadCount`).
    case headCount(Int)
  }

  package let window: Duration
  private let store: QuestionStore
  private let logger: Logger
  private let commands: AsyncStream<Command>.Continuation
  private let worker: Task<Void, Never>

  /// `fanOutTime`: told how long each broadcast took, from the first change it carries to
  /// its hand-off to every joined socket's queue (the coalescing window included).
  package init(
    store: QuestionStore, window: Duration = .milliseconds(100),
    deflaters: CompressorPool? = nil,
    fanOutTime: @escaping @Sendable (Duration) -> Void = { _ in }, logger: Logger
  ) {
    self.store = store
    self.window = window
    self.logger = logger
    let (stream, commands) = AsyncStream<Command>.makeStream()
    self.commands = commands
    let state = Worker(
      store: store, window: window, deflaters: deflaters, commands: commands,
      fanOutTime: fanOutTime, logger: logger)
    worker = Task { await state.run(stream) }
  }

  package func join(_ connection: SocketConnection, _ join: Join, attendee: UUID?) {
    commands.yield(.join(connection, join, attendee: attendee))
  }
  package func leave(_ connection: UUID) { commands.yield(.leave(connection)) }
  /// The session's head count, for the screens here (extension `audience`).
  package func headCount(_ count: Int) { commands.yield(.headCount(count)) }
  /// Something in the room changed (its log row is committed). A presenter's action is
  /// `urgent`: it goes out at once, window or not (votes may storm; presenters do not).
  package func changed(urgent: Bool = false) { commands.yield(.changed(urgent: urgent)) }

  package func stop() {
    commands.finish()
    worker.cancel()
  }

  /// The hub's state, touched only by its one task.
  final class Worker: @unchecked Sendable {
    // @unchecked: only `run`, one task, ever touches these fields.
    package let store: QuestionStore
    package let window: Duration
    package let deflaters: CompressorPool?
    package let commands: AsyncStream<Command>.Continuation
    package let fanOutTime: @Sendable (Duration) -> Void
    package let logger: Logger
    package var members: [UUID: Member] = [:]
    /// Sockets whose snapshot is still on its way, paced to their reading: deltas wait.
    package var joining: Set<UUID> = []
    /// The room as everyone sees it, for attendees and for presenters, read once and shared
    /// by every socket that joins while it is recent.
    package var shared: [Bool: SharedSnapshot] = [:]
    package var lastSent: Int?
    package var epoch: UUID?
    package var flushScheduled = false
    package var retryScheduled = false
    package var lastFlush = ContinuousClock.now - .seconds(1)
    /// When the oldest change not broadcast yet came in: the fan-out latency starts there.
    package var changedSince: ContinuousClock.Instant?
    var audience = RoomAudience()
    package let codec = WireCodec()

    package struct Member {
      package var connection: SocketConnection
      /// The last sequence number it was sent while it was not reading: what changed since
      /// waits for it, merged into one catch-up.
      package var behind: Int?
    }

    package init(
      store: QuestionStore, window: Duration, deflaters: CompressorPool?,
      commands: AsyncStream<Command>.Continuation,
      fanOutTime: @escaping @Sendable (Duration) -> Void, logger: Logger
    ) {
      self.store = store
      self.window = window
      self.deflaters = deflaters
      self.commands = commands
      self.fanOutTime = fanOutTime
      self.logger = logger
    }

    package func run(_ stream: AsyncStream<Command>) async {
      for await command in stream {
        do throws(StoreError) {
          switch command {
          case .join(let connection, let join, let attendee):
            // A socket whose snapshot is on its way is brought level by it and the catch-up
            // after it: its joins meanwhile cost the room nothing.
            guard !joining.contains(connection.id) else { continue }
            connection.isCompact = join.counts == true
            if audience.arrived(connection) { commands.yield(.audience) }
            try await welcome(connection, join, attendee: attendee)
          case .leave(let id):
            members[id] = nil
            joining.remove(id)
            audience.left(id)
          case .audience: audience.tell(codec: codec, deflaters: deflaters)
          case .headCount(let count):
            audience.counted(count)
            audience.tell(codec: codec, deflaters: deflaters)
          case .snapshotSent(let connection, let seq): try await caughtUp(connection, from: seq)
          case .changed(let urgent):
            if changedSince == nil { changedSince = ContinuousClock.now }
            scheduleFlush(urgent: urgent)
          case .flush:
            flushScheduled = false
            try await flush()
          case .retryBehind:
            retryScheduled = false
            try await catchUpBehind()
          }
        } catch {
          logger.error("room: \(error)")
        }
      }
    }

    func current() async throws(StoreError) -> (epoch: UUID, seq: Int) {
      if let epoch, let lastSent { return (epoch, lastSent) }
      let fresh = (try await store.roomEpoch(), try await store.currentSeq())
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
      if let since = join.since, join.epoch == epoch, since <= seq, seq - since <= Self.catchUpLimit
      {
        // Behind until its catch-up is sent: a read that fails is tried again.
        members[connection.id] = Member(connection: connection, behind: since)
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

    /// Log rows a catch-up reads at most; further behind, a snapshot is cheaper.
    package static let catchUpLimit = 5000

    /// The room everyone sees is read here, in turn, once while it is recent; each socket's
    /// pages go out only as the socket reads them (from a task of its own), so a reader that
    /// is not reading costs the room nothing past its first page. With the compact format
    /// the pages are the same bytes for every joiner, and what is the attendee's own follows
    /// in `roomOwn`; in today's format each socket's pages are made with its marks. Deltas
    /// for the socket wait until the last page is queued, then a catch-up brings it level.
    func sendSnapshot(to connection: SocketConnection, attendee: UUID?, epoch: UUID)
      async throws(StoreError)
    {
      let snapshot = try await sharedSnapshot(presenter: connection.isPresenter, epoch: epoch)
      joining.insert(connection.id)
      let commands = self.commands
      let store = self.store
      let logger = self.logger
      let deflaters = self.deflaters
      let compact = connection.isCompact
      Task {
        var view = AttendeeView.none
        if let attendee {
          do {
            view = try await store.view(of: attendee, presenter: connection.isPresenter)
          } catch {
            // The room without marks: better than none; the next join marks them.
            logger.error("room: the view of \(attendee): \(error)")
          }
        }
        let codec = WireCodec()
        if compact {
          var pages = snapshot.compactPages[...]
          while !pages.isEmpty {
            guard await connection.waitForRoom() else { return }
            pages = pages.dropFirst(connection.send(leading: pages))
          }
          for own in snapshot.own(view) {
            connection.send(
              OutgoingMessage(codec.encode(.roomOwn(own)), deflaters: deflaters), due: nil)
          }
        } else {
          var pages = SnapshotPages(snapshot, view: view)
          while let page = pages.next() {
            guard await connection.waitForRoom() else { return }
            connection.send(OutgoingMessage(page, deflaters: deflaters), due: nil)
          }
        }
        commands.yield(.snapshotSent(connection, seq: snapshot.seq))
      }
    }

    private func sharedSnapshot(presenter: Bool, epoch: UUID) async throws(StoreError)
      -> SharedSnapshot
    {
      // A large room (one whose reading costs) is reused a while after it changed: joiners
      // catch up from it, and a crowd joining during a vote storm costs a read now and then,
      // not one per change. A small one is read again whenever it changed.
      if let cached = shared[presenter], cached.epoch == epoch,
        ContinuousClock.now - cached.readAt < cached.reusableFor,
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
      let changedTo = try await store.currentSeq()
      if let cached = shared[presenter], cached.epoch == epoch, cached.seq == changedTo {
        return cached
      }
      // The room as of its last change, which may not be broadcast yet: the next delta then
      // repeats what the snapshot has, which changes nothing.
      let started = ContinuousClock.now
      let room = try await store.snapshot(for: nil, presenter: presenter)
      let fresh = SharedSnapshot(
        seq: room.seq, epoch: epoch, questions: room.questions, highlighted: room.highlighted,
        announcement: room.announcement, nextUp: room.nextUp, labels: room.labels,
        deflaters: deflaters, readAt: started,
        readCost: ContinuousClock.now - started)
      shared[presenter] = fresh
      return fresh
    }

    private func scheduleFlush(urgent: Bool) {
      if urgent {
        // Next in turn, window or not. A flush already waiting finds less (or nothing) to send.
        commands.yield(.flush)
        return
      }
      guard !flushScheduled else { return }
      flushScheduled = true
      // Leading edge: after a quiet spell the change goes out at once.
      let wait = max(.zero, window - (ContinuousClock.now - lastFlush))
      let commands = self.commands
      Task {
        if wait > .zero { try? await Task.sleep(for: wait) }
        commands.yield(.flush)
      }
    }

    private func flush() async throws(StoreError) {
      lastFlush = ContinuousClock.now
      // Whatever changed so far is in what this flush reads (or was in an earlier one).
      let since = changedSince
      changedSince = nil
      do {
        try await broadcast(since: since)
      } catch {
        // What changed still reaches the room: read again in a moment, whether or not
        // anything else changes meanwhile.
        changedSince = changedSince ?? since ?? ContinuousClock.now
        retryLater(.flush)
        throw error
      }
    }

    private func broadcast(since: ContinuousClock.Instant?) async throws(StoreError) {
      let (_, sent) = try await current()
      let seq = try await store.currentSeq()
      guard seq > sent else { return }
      // Two audiences: attendees, and presenters (who see every question); each delta is
      // read once for all of its audience, and sent once every read is in (a read that
      // fails leaves the whole range to the next flush).
      var deliveries: [(changes: RoomChanges, audience: [SocketConnection])] = []
      var notReading: [UUID] = []
      for presenter in [false, true] {
        var audience: [SocketConnection] = []
        for (id, member) in members where member.connection.isPresenter == presenter {
          guard member.behind == nil else { continue }
          if member.connection.isCongested {
            // Not reading: what changes waits for it, merged, until it reads again.
            notReading.append(id)
            continue
          }
          audience.append(member.connection)
        }
        guard !audience.isEmpty else { continue }
        let changes = try await store.changes(after: sent, upTo: seq, presenter: presenter)
        deliveries.append((changes, audience))
      }
      lastSent = seq
      for id in notReading { members[id]?.behind = sent }
      for delivery in deliveries { send(delivery.changes, to: delivery.audience) }
      if let since, !members.isEmpty {
        fanOutTime(ContinuousClock.now - since)
      }
      try await catchUpBehind()
    }

    /// One broadcast: encoded once per format its sockets asked for, framed once per framing,
    /// and handed to each event loop once for all of its sockets.
    func send(_ changes: RoomChanges, to sockets: [SocketConnection]) {
      var byFormat: [Bool: [SocketConnection]] = [:]
      for socket in sockets { byFormat[socket.isCompact, default: []].append(socket) }
      for (compact, group) in byFormat {
        let messages = Broadcast.pages(
          of: compact ? changes.compact : changes.full, codec: codec, deflaters: deflaters)
        Broadcast.send(messages, to: group)
      }
    }
  }
}
