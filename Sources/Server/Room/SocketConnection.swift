import Foundation
import NIOCore
import NIOWebSocket
import QnA
import QnAStore
import Synchronization

/// One attendee's WebSocket: its id, its output, and what the server tracks about it.
///
/// A send returns at once, so a slow attendee holds up nobody, not the presenter's answer,
/// not the other attendees. Frames go straight onto the channel (`Output.frames`), handed
/// over on the socket's event loop; with the mock's latency, or through the WebSocket library
/// (`Output.library`, the per-socket baseline), they wait in the socket's own queue and one
/// task writes them in order. A socket that stops reading is dropped once `maxQueuedBytes`
/// wait for it: its client catches up through `join` and `resume` when it comes back.
package final class SocketConnection: Sendable {
  package let id: UUID
  package let channel: any Channel
  package let openedAt: Date
  /// Opened with the admin token (or on a loopback server without one) as a presenter's
  /// connection: presenter actions are taken from it, and the room it sees has every question.
  package let isPresenter: Bool
  /// The session it belongs to (0: the default one).
  package let session: Int64
  /// Its client's address as per-address budgets count it (the forwarded one behind a
  /// trusted proxy; an IPv6 address as its /64); `nil` for one they do not count.
  package let address: String?
  private let output: Output
  /// The writer task and its queue, for a socket whose messages wait their turn
  /// (`Output.library`, or the mock's latency); `nil` for one whose frames go straight to its
  /// event loop, which needs no task of its own while it is open (a task and a stream are
  /// about 2 KB a socket, at 10,000 sockets 20 MB).
  private let writer: Writer?
  /// The close handshake's task, for a socket without a writer.
  private let closing = Mutex<Task<Void, Never>?>(nil)
  /// Where frames go without a writer: kept apart from `output`, and from `route`, so that
  /// each of a broadcast's per-socket steps reads one stored field (a copy of a tuple that
  /// held both was three retains per socket per broadcast).
  private let directWriter: RawFrameWriter?
  private let serial: Bool
  private let queuedBytes = QueuedBytes()
  private let maxQueuedBytes: Int
  /// Every socket's queue together, shared with the others.
  private let allQueued: SendBudget
  /// New questions when the socket has no person to count them against (`PersonBudgets`),
  /// refused past it; lookups, slowed past it.
  private let questionBudget: Mutex<TokenBucket>
  private let lookupBudget: Mutex<TokenBucket>
  /// Joins: a few at once, then slowed (a client joins once per connection, and again on a
  /// gap in the room's deltas).
  private let joinBudget: Mutex<TokenBucket>
  private let joined = Mutex<Identity?>(nil)
  private let compact = Atomic<Bool>(false)
  /// What the socket's first join made it: 0 not joined yet, 1 an attendee, 2 a screen.
  private let role = Atomic<UInt8>(0)

  /// Where the socket's messages go.
  package enum Output: Sendable {
    /// Whole frames onto the channel below the WebSocket library (`RawFrameWriter`), made once
    /// for every socket with the same framing; `closer` sends the close handshake.
    case frames(RawFrameWriter, Framing, closer: any SocketWriter)
    /// Through the WebSocket library, which frames (and compresses) each message for this
    /// socket alone: the per-socket baseline (`--legacy-broadcast`).
    case library(any SocketWriter)

    /// Where the close handshake goes, either way.
    var closer: any SocketWriter {
      switch self {
      case .frames(_, _, let closer), .library(let closer): closer
      }
    }
  }

  /// Who a socket joined the room as: set by its first join, never changed after.
  package struct Identity: Sendable, Equatable {
    package var attendee: UUID
    package var credential: UUID
    /// The id the first join claimed: `attendee` unless the server gave another (a client
    /// without `identity` keeps sending it, and is still this socket's attendee).
    package var claimed: UUID
    /// The name last recorded for it.
    package var name: String?

    package init(attendee: UUID, credential: UUID, claimed: UUID, name: String?) {
      self.attendee = attendee
      self.credential = credential
      self.claimed = claimed
      self.name = name
    }

    /// Whether a later join on the socket names this attendee.
    package func isNamed(by join: Join) -> Bool {
      join.attendee == attendee || join.attendee == claimed
    }
  }

  /// The attendee this socket joined the room as (extension `room`): who asks and votes
  /// here. Never taken from the connection's id.
  package var attendee: UUID? { joined.withLock { $0?.attendee } }
  package var identity: Identity? {
    get { joined.withLock { $0 } }
    set { joined.withLock { $0 = newValue } }
  }
  /// Whether the socket joined as a screen (extension `audience`): it watches, uncounted.
  package var isScreen: Bool { role.load(ordering: .relaxed) == 2 }

  /// Its first join settles what the socket is for its life: a screen or an attendee.
  package func settleRole(screen: Bool) {
    _ = role.compareExchange(expected: 0, desired: screen ? 2 : 1, ordering: .relaxed)
  }
  /// Whether the socket asked for the compact room (extension `counts`) in its join.
  package var isCompact: Bool {
    get { compact.load(ordering: .relaxed) }
    set { compact.store(newValue, ordering: .relaxed) }
  }

  /// `serial`: every message through the writer task in order, after its `due` time (the
  /// mock's latency).
  package init(
    id: UUID, channel: any Channel, output: Output, serial: Bool = false, openedAt: Date,
    isPresenter: Bool = false, session: Int64 = SessionRecord.defaultID, address: String?,
    questionBudget: TokenBucket, lookupBudget: TokenBucket,
    joinBudget: TokenBucket, maxQueuedBytes: Int,
    allQueued: SendBudget, uptime: @escaping @Sendable () -> Duration
  ) {
    self.id = id
    self.channel = channel
    self.output = output
    self.openedAt = openedAt
    self.isPresenter = isPresenter
    self.session = session
    self.address = address
    self.maxQueuedBytes = maxQueuedBytes
    self.allQueued = allQueued
    self.questionBudget = Mutex(questionBudget)
    self.lookupBudget = Mutex(lookupBudget)
    self.joinBudget = Mutex(joinBudget)
    if case .library = output { self.serial = true } else { self.serial = serial }
    if case .frames(let raw, let framing, _) = output, !self.serial {
      route = (raw.eventLoop, framing)
      directWriter = raw
    } else {
      route = nil
      directWriter = nil
    }
    writer =
      self.serial
      ? Writer(
        output: output, channel: channel, queuedBytes: queuedBytes, allQueued: allQueued,
        maxQueuedBytes: maxQueuedBytes, uptime: uptime) : nil
  }

  package enum Outgoing: Sendable {
    /// Not before `due` (an uptime: the mock latency).
    case message(OutgoingMessage, due: Duration?)
    case close(WebSocketErrorCode, String, timeout: Duration)
  }

  /// The event loop to hand this socket's frames to directly, with others of the same loop
  /// (`writeOnLoop`), and the framing they are made for; `nil` when its messages go through
  /// its queue. Stored: a broadcast reads it for every socket of the room.
  package let route: (loop: any EventLoop, framing: Framing)?

  /// Sends one message; returns at once. Drops the socket instead when the attendee is too
  /// far behind.
  package func send(_ message: OutgoingMessage, due: Duration?) {
    // Without a writer (no latency to wait for) every frame goes straight to the loop.
    if directWriter != nil {
      _ = send(leading: [message])
      return
    }
    let size = message.payload.readableBytes
    let verdict = queuedBytes.state.withLock { state -> QueuedBytes.Verdict in
      if state.finished { return .gone }
      guard state.count + size <= maxQueuedBytes, allQueued.take(size) else { return .tooFar }
      state.count += size
      return .queued
    }
    switch verdict {
    case .gone: return
    case .tooFar: drop()
    case .queued:
      if writer?.queue.yield(.message(message, due: due)).isTerminated ?? true {
        allQueued.release(queuedBytes.written(size))
      }
    }
  }

  /// On its `route`'s loop: hands this socket's frame (made for its framing) to the channel.
  /// `flush: false`: it goes out with the socket's next flush (`flushOnLoop`).
  package func writeOnLoop(_ frame: ByteBuffer, flush: Bool = true) {
    guard let raw = directWriter else { return }
    Self.write(frame, raw, channel, queuedBytes, allQueued, limit: maxQueuedBytes, flush: flush)
  }

  /// On its `route`'s loop: what `writeOnLoop(_:flush:)` left unflushed goes out now.
  package func flushOnLoop() {
    directWriter?.flush()
  }

  /// Sends the first of `messages` and those after it that fit under `congestedBacklog`
  /// with what the loop has yet to write, in one hand-off to the loop and one flush (a large
  /// room's snapshot: a few hand-offs, not one per page); returns how many it sent.
  package func send(leading messages: ArraySlice<OutgoingMessage>) -> Int {
    guard let raw = directWriter, let framing = route?.framing else {
      guard let first = messages.first else { return 0 }
      send(first, due: nil)
      return 1
    }
    let room = Self.congestedBacklog - queuedBytes.handed
    var frames: [ByteBuffer] = []
    var size = 0
    for message in messages {
      let frame = message.frame(for: framing)
      if !frames.isEmpty, size + frame.readableBytes > room { break }
      frames.append(frame)
      size += frame.readableBytes
    }
    let (queuedBytes, allQueued, limit, channel) = (
      self.queuedBytes, self.allQueued, maxQueuedBytes, self.channel
    )
    // Counted until the loop writes it, so that a reply made ahead of the loop (a snapshot's
    // next page) sees the socket as busy.
    queuedBytes.hand(size)
    raw.eventLoop.execute { [frames, size] in
      guard
        Self.admit(size, raw, channel, queuedBytes, allQueued, limit: limit, handed: true)
      else { return }
      raw.write(frames)
    }
    return frames.count
  }

  static func write(
    _ frame: ByteBuffer, _ raw: RawFrameWriter, _ channel: any Channel,
    _ queuedBytes: QueuedBytes, _ allQueued: SendBudget, limit: Int, handed: Bool = false,
    flush: Bool = true
  ) {
    guard
      admit(
        frame.readableBytes, raw, channel, queuedBytes, allQueued, limit: limit, handed: handed)
    else { return }
    raw.write(frame, flush: flush)
  }

  /// On the loop, before writing `size` bytes: whether to write them. The channel buffers
  /// what the peer has not read; while it is over its high-water mark, what is written
  /// counts against the socket's limit (and everyone's), and past it the socket is dropped.
  /// Once the peer reads again, the count starts over.
  private static func admit(
    _ size: Int, _ raw: RawFrameWriter, _ channel: any Channel, _ queuedBytes: QueuedBytes,
    _ allQueued: SendBudget, limit: Int, handed: Bool
  ) -> Bool {
    // The writer's copy, set on this loop as the channel's changes.
    let writable = raw.isWritable
    if handed { queuedBytes.unhand(size) }
    let verdict = queuedBytes.state.withLock { state -> QueuedBytes.Verdict in
      if state.finished { return .gone }
      if writable {
        // Every write of a broadcast comes here: the shared budget's lock only when there
        // is something to give back.
        if state.blocked > 0 {
          allQueued.release(state.blocked)
          state.count -= state.blocked
          state.blocked = 0
        }
        return .queued
      }
      guard state.count + size <= limit, allQueued.take(size) else { return .tooFar }
      state.count += size
      state.blocked += size
      return .queued
    }
    switch verdict {
    case .gone: return false
    case .tooFar:
      channel.close(mode: .all, promise: nil)
      return false
    case .queued: return true
    }
  }

  /// Bytes waiting for the peer beyond what the channel takes freely.
  package var backlog: Int { queuedBytes.state.withLock { $0.count } }
  /// The socket has ended (closed, dropped): nothing sent now goes anywhere.
  package var isFinished: Bool { queuedBytes.state.withLock { $0.finished } }
  /// A queue of this many bytes is a reader falling behind (the channel's own high-water
  /// mark, 64 KiB, for frames written straight to it).
  package static let congestedBacklog = 64 * 1024

  /// Whether the peer is not taking what it is sent: the room's deltas then wait, merged,
  /// until it is (`RoomFanOut`), and a snapshot's next page waits too.
  package var isCongested: Bool {
    if serial { return backlog >= Self.congestedBacklog }
    // The writer's copy of the channel's writability: the channel's own is several objects
    // away, read for every socket of every broadcast.
    let writable = directWriter?.isWritable ?? channel.isWritable
    return !writable || queuedBytes.handed >= Self.congestedBacklog
  }

  /// Waits until the peer takes what it is sent, before making the next part of a long
  /// reply (a large room), which would otherwise fill the queue at once, or be made long
  /// before a reader that is not reading could take it. False if the socket ended meanwhile.
  package func waitForRoom() async -> Bool {
    // From 2 ms, doubling to 100 ms while the reader is slow: a thousand slow readers cost
    // ten thousand wake-ups a second, not half a million.
    var pause = Duration.milliseconds(2)
    while isCongested, !isFinished {
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .milliseconds(100))
    }
    return !isFinished
  }

  /// `nil` if a new question may be stored now, else how long until one may.
  package func takeQuestion(now: Duration) -> Duration? {
    questionBudget.withLock { $0.take(now: now) }
  }

  /// A question taken from this socket's own bucket was not stored: its token back.
  package func giveBackQuestion(now: Duration) {
    questionBudget.withLock { $0.giveBack(now: now) }
  }

  /// How long to wait before this join is taken (zero: at once).
  package func spendJoin(now: Duration) -> Duration {
    joinBudget.withLock { $0.spend(1, now: now) }
  }

  /// Whether a join may be answered with a refusal now (past the budget: silently ignored).
  package func mayRefuseJoin(now: Duration) -> Bool {
    joinBudget.withLock { $0.take(now: now) == nil }
  }

  /// How long to wait before looking up `count` stored questions for this socket.
  package func spendLookups(_ count: Int, now: Duration) -> Duration {
    lookupBudget.withLock { $0.spend(count, now: now) }
  }

  /// The close handshake, with this code and reason, after what is queued; the socket ends
  /// when the peer answers, or `timeout` later in any case. `queued: false` (shutdown): at
  /// once, the writer's queue dropped, so that no wait in it holds the close back (its
  /// client catches up when it reconnects).
  /// Frames handed to the loop before it go out before the close frame; once the close frame
  /// is written (by this or by the library), none go after it (`RawFrameWriter`).
  package func close(
    code: WebSocketErrorCode, reason: String, timeout: Duration = .seconds(5),
    queued: Bool = true
  ) {
    if let writer {
      guard !queued else {
        if writer.queue.yield(.close(code, reason, timeout: timeout)).isTerminated {
          channel.close(mode: .all, promise: nil)
        }
        return
      }
      // A write of the writer's still under way is cancelled before it reaches the socket,
      // rather than following the close frame.
      writer.queue.finish()
      writer.task.cancel()
    }
    guard !isFinished else {
      channel.close(mode: .all, promise: nil)
      return
    }
    let closer = output.closer
    let channel = self.channel
    closing.withLock { task in
      guard task == nil else { return }
      task = Task { await Writer.close(closer, channel, code, reason, timeout) }
    }
  }

  /// Gone without a close frame.
  package func drop() {
    channel.close(mode: .all, promise: nil)
  }

  /// Ends the writer once the handler is done; what it had not written leaves the budget.
  package func finish() {
    writer?.queue.finish()
    writer?.task.cancel()
    closing.withLock { $0?.cancel() }
    allQueued.release(queuedBytes.finish())
  }
}

/// Where a socket's writer task writes: the WebSocket library's outbound side (the app adapts
/// Hummingbird's), so that the room depends on no server framework.
package protocol SocketWriter: Sendable {
  /// One binary message.
  func write(_ bytes: ByteBuffer) async throws
  /// The close handshake.
  func close(_ code: WebSocketErrorCode, reason: String) async throws
}
