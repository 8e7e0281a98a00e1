import NIOCore

/// Writes whole WebSocket frames made elsewhere (`OutgoingMessage`) onto a channel, below the
/// WebSocket library's encoder and extensions: the bytes go out as they are, a reference to
/// one buffer shared by every socket that takes the same frame. Installed just before the
/// frame encoder, so anything nearer the network (the guards, the stall handler) still sees
/// them. Frames are whole messages: the library's own control frames (ping, pong, close) can
/// only come between them.
package final class RawFrameWriter: ChannelOutboundHandler, RemovableChannelHandler, Sendable {
  package typealias OutboundIn = ByteBuffer
  package typealias OutboundOut = ByteBuffer

  package let eventLoop: any EventLoop
  private let context: NIOLoopBoundBox<ChannelHandlerContext?>

  package init(eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
    context = .makeEmptyBox(valueType: ChannelHandlerContext.self, eventLoop: eventLoop)
  }

  package func handlerAdded(context: ChannelHandlerContext) { self.context.value = context }
  package func handlerRemoved(context: ChannelHandlerContext) { self.context.value = nil }

  /// On the event loop only.
  package func write(_ frame: ByteBuffer) {
    guard let context = context.value else { return }
    context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
  }
}
