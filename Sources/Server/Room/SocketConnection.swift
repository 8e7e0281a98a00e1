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
  /// The writer task's queue: every message with `Output.library` or a latency, else only
  /// the close.
  private let queue: AsyncStream<Outgoing>.Continuation
  private let writer: Task<Void, Never>
  private let serial: Bool
  private let queuedBytes = QueuedBytes()
  private let maxQueuedBytes: Int
  /// Every socket's queue together, shared with the others.
  private let allQueued: SendBudget
  /// New questions and votes (refused past it), and lookups (slowed past it).
  private let questionBudget: Mutex<TokenBucket>
  private let voteBudget: Mutex<TokenBucket>
  private let lookupBudget: Mutex<TokenBucket>
  /// Joins: a few at once, then slowed (a client joins once per connection, and again on a
  /// gap in the room's deltas).
  private let joinBudget: Mutex<TokenBucket>
  private let joined = Mutex<Identity?>(nil)
  private let compact = Atomic<Bool>(false)

  /// Where the socket's messages go.
  package enum Output: Sendable {
    /// Whole frames onto the channel below the WebSocket library (`RawFrameWriter`), made once
    /// for every socket with the same framing; `closer` sends the close handshake.
    case frames(RawFrameWriter, Framing, closer: any SocketWriter)
    /// Through the WebSocket library, which frames (and compresses) each message for this
    /// socket alone: the per-socket baseline (`--legacy-broadcast`).
    case library(any SocketWriter)
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
    questionBudget: TokenBucket, voteBudget: TokenBucket, lookupBudget: TokenBucket,
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
    self.voteBudget = Mutex(voteBudget)
    self.lookupBudget = Mutex(lookupBudget)
    self.joinBudget = Mutex(joinBudget)
    if case .library = output { self.serial = true } else { self.serial = serial }
    let (messages, queue) = AsyncStream<Outgoing>.makeStream()
    self.queue = queue
    let queuedBytes = self.queuedBytes
    writer = Task {
      for await message in messages {
        switch message {
        case .message(let outgoing, let due):
          if let due, due > uptime() { try? await Task.sleep(for: due - uptime()) }
          let size = outgoing.payload.readableBytes
          switch output {
          case .library(let writer):
            // A failed write means the socket is gone; its handler cleans up.
            try? await writer.write(outgoing.payload)
            allQueued.release(queuedBytes.written(size))
          case .frames(let raw, let framing, _):
            allQueued.release(queuedBytes.written(size))
            let frame = outgoing.frame(for: framing)
            queuedBytes.hand(frame.readableBytes)
            raw.eventLoop.execute {
              Self.write(
                frame, raw, channel, queuedBytes, allQueued, limit: maxQueuedBytes, handed: true)
            }
          }
        case .close(let code, let reason, let timeout):
          switch output {
          case .library(let closer), .frames(_, _, let closer):
            try? await closer.close(code, reason: reason)
          }
          try? await Task.sleep(for: timeout)
          channel.close(mode: .all, promise: nil)
          return
        }
      }
    }
  }

  package enum Outgoing: Sendable {
    /// Not before `due` (an uptime: the mock latency).
    case message(OutgoingMessage, due: Duration?)
    case close(WebSocketErrorCode, String, timeout: Duration)
  }

  /// The event loop to hand this socket's frames to directly, with others of the same loop
  /// (`writeOnLoop`); `nil` when its messages go through its queue.
  package var directLoop: (any EventLoop)? {
    guard !serial, case .frames(let raw, _, _) = output else { return nil }
    return raw.eventLoop
  }

  package var framing: Framing? {
    guard case .frames(_, let framing, _) = output else { return nil }
    return framing
  }

  /// Sends one message; returns at once. Drops the socket instead when the attendee is too
  /// far behind.
  package func send(_ message: OutgoingMessage, due: Duration?) {
    if let loop = directLoop, due == nil, case .frames(let raw, let framing, _) = output {
      let frame = message.frame(for: framing)
      let (queuedBytes, allQueued, limit, channel) = (
        self.queuedBytes, self.allQueued, maxQueuedBytes, self.channel
      )
      // Counted until the loop writes it, so that a reply made ahead of the loop (a
      // snapshot's next page) sees the socket as busy.
      queuedBytes.hand(frame.readableBytes)
      loop.execute {
        Self.write(frame, raw, channel, queuedBytes, allQueued, limit: limit, handed: true)
      }
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
      if case .terminated = queue.yield(.message(message, due: due)) {
        allQueued.release(queuedBytes.written(size))
      }
    }
  }

  /// On `directLoop`: hands the frame for this socket to the channel.
  package func writeOnLoop(_ frames: [Framing: ByteBuffer]) {
    guard case .frames(let raw, let framing, _) = output, let frame = frames[framing] else {
      return
    }
    Self.write(frame, raw, channel, queuedBytes, allQueued, limit: maxQueuedBytes)
  }

  /// The channel buffers what the peer has not read; while it is over its high-water mark,
  /// what is written counts against the socket's limit (and everyone's), and past it the
  /// socket is dropped. Once the peer reads again, the count starts over.
  private static func write(
    _ frame: ByteBuffer, _ raw: RawFrameWriter, _ channel: any Channel,
    _ queuedBytes: QueuedBytes, _ allQueued: SendBudget, limit: Int, handed: Bool = false
  ) {
    let size = frame.readableBytes
    let writable = channel.isWritable
    let verdict = queuedBytes.state.withLock { state -> QueuedBytes.Verdict in
      if handed { state.handed -= size }
      if state.finished { return .gone }
      if writable {
        allQueued.release(state.blocked)
        state.count -= state.blocked
        state.blocked = 0
        return .queued
      }
      guard state.count + size <= limit, allQueued.take(size) else { return .tooFar }
      state.count += size
      state.blocked += size
      return .queued
    }
    switch verdict {
    case .gone: return
    case .tooFar: channel.close(mode: .all, promise: nil)
    case .queued: raw.write(frame)
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
    return !channel.isWritable
      || queuedBytes.state.withLock { $0.handed } >= Self.congestedBacklog
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

  /// `nil` if a vote may be counted now, else how long until one may.
  package func takeVote(now: Duration) -> Duration? {
    voteBudget.withLock { $0.take(now: now) }
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
  /// when the peer answers, or `timeout` later in any case.
  /// Frames handed to the loop before it go out before the close frame; once the close frame
  /// is written (by this or by the library), none go after it (`RawFrameWriter`).
  package func close(code: WebSocketErrorCode, reason: String, timeout: Duration = .seconds(5)) {
    if case .terminated = queue.yield(.close(code, reason, timeout: timeout)) {
      channel.close(mode: .all, promise: nil)
    }
  }

  /// Gone without a close frame.
  package func drop() {
    channel.close(mode: .all, promise: nil)
  }

  /// Ends the writer once the handler is done; what it had not written leaves the budget.
  package func finish() {
    queue.finish()
    writer.cancel()
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

/// Bytes a socket's writer has yet to write, shared with its task; after `finish` nothing
/// more is counted, so the shared budget gets each byte back exactly once.
package final class QueuedBytes: Sendable {
  package struct State {
    package var count = 0
    /// Of `count`: written to a channel over its high-water mark (frames output).
    package var blocked = 0
    package var finished = false
    /// Frames handed to the socket's event loop and not yet written by it.
    package var handed = 0
  }

  package enum Verdict {
    case queued
    /// Over a limit: the attendee is too far behind.
    case tooFar
    /// The socket has ended.
    case gone
  }

  package let state = Mutex(State())

  /// `size` bytes of a frame handed to the event loop, until it writes them.
  package func hand(_ size: Int) { state.withLock { $0.handed += size } }

  /// `size` bytes left the queue; returns what to give back to the shared budget.
  package func written(_ size: Int) -> Int {
    state.withLock { state in
      guard !state.finished else { return 0 }
      state.count -= size
      return size
    }
  }

  /// No more counting; returns what was still queued.
  package func finish() -> Int {
    state.withLock { state in
      state.finished = true
      defer {
        state.count = 0
        state.blocked = 0
      }
      return state.count
    }
  }
}

/// The bytes queued for all sockets together, against one limit.
package final class SendBudget: Sendable {
  package let limit: Int
  private let used = Mutex(0)

  package init(limit: Int) { self.limit = limit }

  /// Takes `size` bytes if they fit.
  package func take(_ size: Int) -> Bool {
    used.withLock { used in
      guard used + size <= limit else { return false }
      used += size
      return true
    }
  }

  package func release(_ size: Int) { used.withLock { $0 -= size } }
}
