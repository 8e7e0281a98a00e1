import NIOCore
import ProxyTunnel

/// Opens the tunnel through a proxy before anything else touches the connection: it speaks
/// `handshake` with the proxy, then, on the event loop and before any further read, puts the
/// handlers of the tunnelled connection (TLS, the session's bridge) after itself, removes
/// itself, and hands them what the proxy already passed through.
final class ProxyHandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private var handshake: any ProxyHandshake
  private let installTunnelHandlers: (ChannelPipeline.SynchronousOperations) throws -> Void
  private let opened: EventLoopPromise<Void>
  private let timeout: Duration
  private var deadline: Scheduled<Void>?
  private var finished = false

  init(
    handshake: any ProxyHandshake, opened: EventLoopPromise<Void>, timeout: Duration,
    installTunnelHandlers: @escaping (ChannelPipeline.SynchronousOperations) throws -> Void
  ) {
    self.handshake = handshake
    self.opened = opened
    self.timeout = timeout
    self.installTunnelHandlers = installTunnelHandlers
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { begin(context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    begin(context: context)
    context.fireChannelActive()
  }

  /// Sends the first bytes, and gives the proxy `timeout` to open the tunnel: one that
  /// accepts and then says nothing must not hold the attempt for ever.
  private func begin(context: ChannelHandlerContext) {
    guard deadline == nil else { return }
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    deadline = context.eventLoop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) {
      let (handler, context) = bound.value
      handler.fail(.timedOut, context: context)
    }
    write(handshake.start(), context: context)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !finished else { return }
    let buffer = unwrapInboundIn(data)
    do {
      switch try handshake.receive(buffer.readableBytesView) {
      case .waiting: break
      case .send(let bytes): write(bytes, context: context)
      case .established(let leftover): try establish(leftover, context: context)
      }
    } catch let error as ProxyError {
      fail(.proxy(error), context: context)
    } catch {
      fail(.io("\(error)"), context: context)
    }
  }

  private func establish(_ leftover: [UInt8], context: ChannelHandlerContext) throws {
    finished = true
    deadline?.cancel()
    try installTunnelHandlers(context.pipeline.syncOperations)
    opened.succeed()
    if !leftover.isEmpty {
      context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(bytes: leftover)))
    }
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    if !finished { fail(.proxy(handshake.closedEarly()), context: context) }
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if !finished { fail(.io("\(error)"), context: context) }
    context.fireErrorCaught(error)
  }

  private func write(_ bytes: [UInt8], context: ChannelHandlerContext) {
    context.writeAndFlush(
      wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
  }

  private func fail(_ failure: ProxyFailure, context: ChannelHandlerContext) {
    guard !finished else { return }
    finished = true
    deadline?.cancel()
    opened.fail(failure)
    context.close(promise: nil)
  }
}

/// How the tunnel failed, before it is told with the proxy's address.
enum ProxyFailure: Error {
  case proxy(ProxyError)
  case io(String)
  case timedOut
}
