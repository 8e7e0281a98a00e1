import NIOCore

/// Asks a connection's `StallHandler` to hold all traffic for a while.
package struct StallCommand: Sendable {
  package var duration: TimeAmount
  /// Hold only what the server sends: what the peer sends is read and acted on, and the
  /// peer never hears (a reply lost on the way back).
  package var outgoingOnly = false

  package init(duration: TimeAmount, outgoingOnly: Bool = false) {
    self.duration = duration
    self.outgoingOnly = outgoingOnly
  }
}

/// First in a socket's pipeline: passes bytes through, except while stalled, when it holds
/// them in both directions (or only the outgoing ones). The peer sees a half-open connection: its pings go unanswered
/// and nothing arrives, though TCP stays up. Held traffic flows again when the stall ends.
package final class StallHandler: ChannelDuplexHandler, RemovableChannelHandler {
  package init() {}

  package typealias InboundIn = ByteBuffer
  package typealias InboundOut = ByteBuffer
  package typealias OutboundIn = ByteBuffer
  package typealias OutboundOut = ByteBuffer

  private var stalled = false
  private var holdsReads = false
  private var heldReads: [NIOAny] = []
  private var heldWrites: [(NIOAny, EventLoopPromise<Void>?)] = []
  private var release: Scheduled<Void>?

  package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if stalled, holdsReads { heldReads.append(data) } else { context.fireChannelRead(data) }
  }

  package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?)
  {
    if stalled { heldWrites.append((data, promise)) } else { context.write(data, promise: promise) }
  }

  package func flush(context: ChannelHandlerContext) {
    if !stalled { context.flush() }
  }

  package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard let command = event as? StallCommand else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    stalled = true
    holdsReads = !command.outgoingOnly
    release?.cancel()
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    release = context.eventLoop.scheduleTask(in: command.duration) {
      let (handler, context) = loopBound.value
      handler.resume(context: context)
    }
  }

  private func resume(context: ChannelHandlerContext) {
    stalled = false
    let reads = heldReads
    let writes = heldWrites
    heldReads = []
    heldWrites = []
    for (data, promise) in writes { context.write(data, promise: promise) }
    if !writes.isEmpty { context.flush() }
    for data in reads { context.fireChannelRead(data) }
    if !reads.isEmpty { context.fireChannelReadComplete() }
  }
}
