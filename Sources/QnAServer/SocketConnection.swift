import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization

/// One attendee's WebSocket: its id, its writer, and what the server tracks about it.
/// Messages are written as they come; with a mock latency they pass through one writer task
/// instead, which delays each while keeping their order.
final class SocketConnection: Sendable {
  let id: UUID
  let channel: any Channel
  let openedAt: Date
  private let outbound: WebSocketOutboundWriter
  private let queue: AsyncStream<Outgoing>.Continuation
  private let writer: Task<Void, Never>
  /// New questions (refused past it), and lookups (slowed past it).
  private let questionBudget: Mutex<TokenBucket>
  private let lookupBudget: Mutex<TokenBucket>

  init(
    id: UUID, channel: any Channel, outbound: WebSocketOutboundWriter, openedAt: Date,
    questionBudget: TokenBucket, lookupBudget: TokenBucket, latency: Duration?,
    uptime: @escaping @Sendable () -> Duration
  ) {
    self.id = id
    self.channel = channel
    self.outbound = outbound
    self.openedAt = openedAt
    self.questionBudget = Mutex(questionBudget)
    self.lookupBudget = Mutex(lookupBudget)
    let (messages, queue) = AsyncStream<Outgoing>.makeStream()
    self.queue = queue
    writer = Task {
      for await message in messages {
        if latency != nil, message.due > uptime() {
          try? await Task.sleep(for: message.due - uptime())
        }
        // A failed write means the socket is gone; its handler cleans up.
        try? await outbound.write(.binary(message.bytes))
        message.written.resume()
      }
    }
  }

  struct Outgoing: Sendable {
    var bytes: ByteBuffer
    /// Not before this uptime (the mock latency).
    var due: Duration
    var written: CheckedContinuation<Void, Never>
  }

  /// Sends a binary message, returning once the socket has taken it (or is gone). With a
  /// mock latency it waits its turn in the writer task, which keeps the order while delaying.
  func send(_ bytes: ByteBuffer, due: Duration?) async {
    guard let due else {
      // A failed write means the socket is gone; its handler cleans up.
      try? await outbound.write(.binary(bytes))
      return
    }
    await withCheckedContinuation { continuation in
      if case .terminated = queue.yield(Outgoing(bytes: bytes, due: due, written: continuation)) {
        continuation.resume()
      }
    }
  }

  /// `nil` if a new question may be stored now, else how long until one may.
  func takeQuestion(now: Duration) -> Duration? {
    questionBudget.withLock { $0.take(now: now) }
  }

  /// How long to wait before looking up `count` stored questions for this socket.
  func spendLookups(_ count: Int, now: Duration) -> Duration {
    lookupBudget.withLock { $0.spend(count, now: now) }
  }

  /// The close handshake, with this code and reason; the socket ends when the peer answers,
  /// or `timeout` later in any case.
  func close(code: WebSocketErrorCode, reason: String, timeout: Duration = .seconds(5)) {
    let outbound = self.outbound
    let channel = self.channel
    Task {
      try? await outbound.close(code, reason: reason)
      try? await Task.sleep(for: timeout)
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
