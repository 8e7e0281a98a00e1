import NIOCore
import NIOWebSocket

extension SocketConnection {
  /// One task that writes a socket's messages in order, each after its `due` time: for the
  /// per-socket baseline (`Output.library`) and the mock's latency.
  struct Writer: Sendable {
    let queue: AsyncStream<Outgoing>.Continuation
    let task: Task<Void, Never>

    init(
      output: Output, channel: any Channel, queuedBytes: QueuedBytes, allQueued: SendBudget,
      maxQueuedBytes: Int, uptime: @escaping @Sendable () -> Duration
    ) {
      let (messages, queue) = AsyncStream<Outgoing>.makeStream()
      self.queue = queue
      task = Task {
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
                SocketConnection.write(
                  frame, raw, channel, queuedBytes, allQueued, limit: maxQueuedBytes,
                  handed: true)
              }
            }
          case .close(let code, let reason, let timeout):
            switch output {
            case .library(let closer), .frames(_, _, let closer):
              await Self.close(closer, channel, code, reason, timeout)
            }
            return
          }
        }
      }
    }

    /// The close frame, then TCP's end once the peer answers or `timeout` passes.
    static func close(
      _ closer: any SocketWriter, _ channel: any Channel, _ code: WebSocketErrorCode,
      _ reason: String, _ timeout: Duration
    ) async {
      try? await closer.close(code, reason: reason)
      try? await Task.sleep(for: timeout)
      channel.close(mode: .all, promise: nil)
    }
  }
}

extension AsyncStream.Continuation.YieldResult {
  /// The stream has ended: what was yielded goes nowhere.
  var isTerminated: Bool {
    if case .terminated = self { return true }
    return false
  }
}
