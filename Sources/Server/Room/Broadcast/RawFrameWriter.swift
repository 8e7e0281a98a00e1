import NIOCore
import NIOWebSocket
import Synchronization

/// Writes whole WebSocket frames made elsewhere (`OutgoingMessage`) onto a channel, below the
/// WebSocket library's encoder and extensions: the bytes go out as they are, a reference to
/// one buffer shared by every socket that takes the same frame. Installed just before the
/// frame encoder, so anything nearer the network (the guards, the stall handler) still sees
/// them. Frames are whole messages: the library's own control frames (ping, pong, close) can
/// only come between them. It keeps its own copy of the channel's writability (`isWritable`),
/// which a broadcast reads for every socket from the room's task.
package final class RawFrameWriter: ChannelDuplexHandler, RemovableChannelHandler, Sendable {
  package typealias InboundIn = ByteBuffer
  package typealias InboundOut = ByteBuffer
  package typealias OutboundIn = ByteBuffer
  package typealias OutboundOut = ByteBuffer

  package let eventLoop: any EventLoop
  private let context: NIOLoopBoundBox<ChannelHandlerContext?>
  /// The close frame has gone out (ours, or the library's: an echoed close, a protocol
  /// error, a ping timeout): RFC 6455 §5.5.1 allows no data frame after it.
  private let closed: NIOLoopBoundBox<Bool?>
  private let writable = Atomic(true)

  package init(eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
    context = .makeEmptyBox(valueType: ChannelHandlerContext.self, eventLoop: eventLoop)
    closed = .makeEmptyBox(valueType: Bool.self, eventLoop: eventLoop)
  }

  /// On the event loop: the library is writing its close frame now.
  package func closeFrameWritten() { closed.value = true }

  /// Whether the channel takes more without going over its high-water mark, from any
  /// thread: the channel's own flag, as of its last change.
  package var isWritable: Bool { writable.load(ordering: .relaxed) }

  package func handlerAdded(context: ChannelHandlerContext) {
    self.context.value = context
    writable.store(context.channel.isWritable, ordering: .relaxed)
  }
  package func handlerRemoved(context: ChannelHandlerContext) { self.context.value = nil }

  package func channelWritabilityChanged(context: ChannelHandlerContext) {
    writable.store(context.channel.isWritable, ordering: .relaxed)
    context.fireChannelWritabilityChanged()
  }

  /// On the event loop only. `flush: false`: the frame waits for the socket's next flush
  /// (`LoopAnswers`).
  package func write(_ frame: ByteBuffer, flush: Bool = true) {
    guard closed.value == nil, let context = context.value else { return }
    if flush {
      context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    } else {
      context.write(wrapOutboundOut(frame), promise: nil)
    }
  }

  /// On the event loop only: what was written without a flush goes out now (nothing, if a
  /// later frame's flush took it already).
  package func flush() {
    context.value?.flush()
  }

  /// On the event loop only: several frames, one flush.
  package func write(_ frames: [ByteBuffer]) {
    guard closed.value == nil, let context = context.value else { return }
    for frame in frames { context.write(wrapOutboundOut(frame), promise: nil) }
    context.flush()
  }
}

/// Watches the WebSocket library's frames on their way to the encoder, for its close frame:
/// from then on `RawFrameWriter` writes nothing. Installed on the library's side of the encoder.
package final class CloseFrameWatcher: ChannelOutboundHandler, RemovableChannelHandler, Sendable {
  package typealias OutboundIn = WebSocketFrame
  package typealias OutboundOut = WebSocketFrame

  private let writer: RawFrameWriter

  package init(_ writer: RawFrameWriter) { self.writer = writer }

  package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?)
  {
    if unwrapOutboundIn(data).opcode == .connectionClose { writer.closeFrameWritten() }
    context.write(data, promise: promise)
  }
}
