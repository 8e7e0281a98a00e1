import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization

/// One attendee's WebSocket: its id, its writer, and what the server tracks about it.
///
/// Messages wait in the socket's own queue and one writer task writes them in order (after
/// the mock latency, if any): a send returns at once, so a slow attendee holds up nobody, not
/// the presenter's answer, not the other attendees. Past `maxQueuedBytes` unsent the attendee
/// is too far behind to catch up this way: its socket is dropped, and its client catches up
/// through `resume` when it comes back.
final class SocketConnection: Sendable {
  let id: UUID
  let channel: any Channel
  let openedAt: Date
  private let queue: AsyncStream<Outgoing>.Continuation
  private let writer: Task<Void, Never>
  private let queuedBytes = QueuedBytes()
  private let maxQueuedBytes: Int
  /// New questions (refused past it), and lookups (slowed past it).
  private let questionBudget: Mutex<TokenBucket>
  private let lookupBudget: Mutex<TokenBucket>

  init(
    id: UUID, channel: any Channel, outbound: WebSocketOutboundWriter, openedAt: Date,
    questionBudget: TokenBucket, lookupBudget: TokenBucket, maxQueuedBytes: Int,
    uptime: @escaping @Sendable () -> Duration
  ) {
    self.id = id
    self.channel = channel
    self.openedAt = openedAt
    self.maxQueuedBytes = maxQueuedBytes
    self.questionBudget = Mutex(questionBudget)
    self.lookupBudget = Mutex(lookupBudget)
    let (messages, queue) = AsyncStream<Outgoing>.makeStream()
    self.queue = queue
    let queuedBytes = self.queuedBytes
    writer = Task {
      for await message in messages {
        switch message {
        case .message(let bytes, let due):
          if let due, due > uptime() { try? await Task.sleep(for: due - uptime()) }
          // A failed write means the socket is gone; its handler cleans up.
          try? await outbound.write(.binary(bytes))
          queuedBytes.count.withLock { $0 -= bytes.readableBytes }
        case .close(let code, let reason, let timeout):
          try? await outbound.close(code, reason: reason)
          try? await Task.sleep(for: timeout)
          channel.close(mode: .all, promise: nil)
          return
        }
      }
    }
  }

  enum Outgoing: Sendable {
    /// Not before `due` (an uptime: the mock latency).
    case message(ByteBuffer, due: Duration?)
    case close(WebSocketErrorCode, String, timeout: Duration)
  }

  /// Queues a binary message; returns at once. Drops the socket instead when the attendee is
  /// too far behind.
  func send(_ bytes: ByteBuffer, due: Duration?) {
    let fits = queuedBytes.count.withLock { queued -> Bool in
      guard queued + bytes.readableBytes <= maxQueuedBytes else { return false }
      queued += bytes.readableBytes
      return true
    }
    guard fits else {
      drop()
      return
    }
    if case .terminated = queue.yield(.message(bytes, due: due)) {
      queuedBytes.count.withLock { $0 -= bytes.readableBytes }
    }
  }

  /// Unsent bytes in the queue.
  var backlog: Int { queuedBytes.count.withLock { $0 } }

  /// `nil` if a new question may be stored now, else how long until one may.
  func takeQuestion(now: Duration) -> Duration? {
    questionBudget.withLock { $0.take(now: now) }
  }

  /// How long to wait before looking up `count` stored questions for this socket.
  func spendLookups(_ count: Int, now: Duration) -> Duration {
    lookupBudget.withLock { $0.spend(count, now: now) }
  }

  /// The close handshake, with this code and reason, after what is queued; the socket ends
  /// when the peer answers, or `timeout` later in any case.
  func close(code: WebSocketErrorCode, reason: String, timeout: Duration = .seconds(5)) {
    if case .terminated = queue.yield(.close(code, reason, timeout: timeout)) {
      channel.close(mode: .all, promise: nil)
    }
  }

  /// Gone without a close frame.
  func drop() {
    channel.close(mode: .all, promise: nil)
  }

  /// Holds all traffic both ways for `seconds`: a half-open link as the client sees it.
  func stall(seconds: Double) {
    let amount = TimeAmount.nanoseconds(Int64(seconds * 1e9))
    channel.pipeline.fireUserInboundEventTriggered(StallCommand(duration: amount))
  }

  /// Ends the writer once the handler is done.
  func finish() {
    queue.finish()
    writer.cancel()
  }
}

/// Bytes a socket's writer has yet to write, shared with its task.
final class QueuedBytes: Sendable {
  let count = Mutex(0)
}
