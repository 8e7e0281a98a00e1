import NIOCore
import NIOPosix
import NIOSSL
import ProxyTunnel
import RFC6455
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// TCP through SwiftNIO, with NIOSSL for `wss://`.
public struct NIOTransport: WebSocketTransport {
  private let group: any EventLoopGroup

  public init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
    self.group = group
  }

  public func connect(
    to url: WebSocketURL, via proxy: ProxyEndpoint?, tls: TLSOptions, timeout: Duration
  ) async throws(TransportError) -> any TransportChannel {
    let sslContext = try url.isSecure ? Self.makeSSLContext(tls) : nil
    // SNI and name verification use host names; an IP literal is verified against IP SANs.
    // Through a proxy too: TLS runs inside the tunnel, end to end with the server.
    let serverName = (try? SocketAddress(ipAddress: url.host, port: 0)) == nil ? url.host : nil
    let bridge = InboundBridge()
    let install: @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void = { pipeline in
      if let sslContext {
        try pipeline.addHandler(
          NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
      }
      try pipeline.addHandler(bridge)
    }
    let handshake: (any ProxyHandshake)?
    do {
      handshake = try proxy?.handshake(toHost: url.host, port: url.port) {
        Base64.encode(Array($0.utf8))
      }
    } catch {
      throw .proxy(proxy?.description ?? "", error)
    }
    let tunnelOpened = group.any().makePromise(of: Void.self)
    let bootstrap = ClientBootstrap(group: group)
      .connectTimeout(.nanoseconds(max(1_000_000, timeout.nanoseconds)))
      .channelOption(.socketOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          if let handshake {
            try channel.pipeline.syncOperations.addHandler(
              ProxyHandshakeHandler(
                handshake: handshake, opened: tunnelOpened, timeout: timeout,
                installTunnelHandlers: install))
          } else {
            try install(channel.pipeline.syncOperations)
          }
        }
      }
    let host = proxy?.host ?? url.host
    let port = proxy?.port ?? url.port
    let channel: any Channel
    do {
      channel = try await bootstrap.connect(host: host, port: port).get()
    } catch {
      tunnelOpened.fail(error)
      if case ChannelError.connectTimeout = error { throw .connectTimedOut(timeout) }
      let through = proxy.map { " (the proxy \($0))" } ?? ""
      throw .connectFailed("\(host):\(port)\(through): \(Self.reason(for: error))")
    }
    if let proxy {
      try await Self.awaitTunnel(tunnelOpened.futureResult, via: proxy, timeout: timeout)
    } else {
      tunnelOpened.succeed()
    }
    return NIOTransportChannel(channel: channel, bridge: bridge)
  }

  private static func awaitTunnel(
    _ opened: EventLoopFuture<Void>, via proxy: ProxyEndpoint, timeout: Duration
  ) async throws(TransportError) {
    do {
      try await opened.get()
    } catch ProxyFailure.proxy(let error) {
      throw .proxy(proxy.description, error)
    } catch ProxyFailure.timedOut {
      throw .connectTimedOut(timeout)
    } catch {
      throw .connectFailed("the proxy \(proxy): \(error)")
    }
  }

  /// The operating system's reason ("Connection refused") rather than NIO's nested
  /// description of every address it tried.
  private static func reason(for error: any Error) -> String {
    guard let failure = error as? NIOConnectionError else { return "\(error)" }
    if let attempt = failure.connectionErrors.last {
      if let io = attempt.error as? IOError { return String(cString: strerror(io.errnoCode)) }
      return "\(attempt.error)"
    }
    if failure.dnsAError != nil || failure.dnsAAAAError != nil {
      return "cannot resolve host name"
    }
    return "\(error)"
  }

  private static func makeSSLContext(_ options: TLSOptions) throws(TransportError) -> NIOSSLContext
  {
    var configuration = TLSConfiguration.makeClientConfiguration()
    do {
      if let caFile = options.caFile {
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
      }
      if options.insecure { configuration.certificateVerification = .none }
      return try NIOSSLContext(configuration: configuration)
    } catch {
      throw .tls(
        "cannot load trust settings\(options.caFile.map { " from \($0)" } ?? ""): \(error)")
    }
  }
}

struct NIOTransportChannel: TransportChannel {
  let channel: any Channel
  let bridge: InboundBridge

  func start(delivering sink: any TransportSink) {
    bridge.start(sink, on: channel)
  }

  func resumeReading() {
    bridge.resumeReading(on: channel)
  }

  /// Always through the event loop's task queue, even when called on the loop: a write made
  /// inline there would overtake writes other threads queued before it (a close frame
  /// ahead of the echo sent just before it, say). So bytes go out in the order of the calls.
  func write(_ chunks: [[UInt8]], completion: (@Sendable (TransportError?) -> Void)?) {
    let channel = self.channel
    channel.eventLoop.execute { Self.writeNow(chunks, to: channel, completion: completion) }
  }

  private static func writeNow(
    _ chunks: [[UInt8]], to channel: any Channel,
    completion: (@Sendable (TransportError?) -> Void)?
  ) {
    guard let last = chunks.indices.last else {
      completion?(nil)
      return
    }
    for (index, chunk) in chunks.enumerated() {
      let buffer = channel.allocator.buffer(bytes: chunk)
      if index < last {
        channel.write(buffer, promise: nil)
      } else {
        let future = channel.writeAndFlush(buffer)
        if let completion {
          future.whenComplete { result in
            if case .failure(let error) = result {
              completion(.io("\(error)"))
            } else {
              completion(nil)
            }
          }
        }
      }
    }
  }

  var isWritable: Bool { channel.isWritable }

  /// Queued like a write, so the writes asked for before it go out first.
  func close() {
    let channel = self.channel
    channel.eventLoop.execute { channel.close(promise: nil) }
  }
}

/// Hands what the channel reads to the session's sink, on the event loop, with no task hop.
/// It passes on the channel's requests to read only while the sink wants more (and not before
/// it started), so an unread backlog stays in the kernel (and TCP slows the peer) instead of
/// growing in memory. Nor while the channel is not writable: what is read may need replies
/// (pongs), and a peer that sends but never reads must not grow our unsent bytes without
/// bound; it is read again once our writes drain.
package final class InboundBridge: ChannelDuplexHandler, Sendable {
  package typealias InboundIn = ByteBuffer
  package typealias OutboundIn = ByteBuffer

  private struct State {
    var sink: (any TransportSink)?
    var wantsMore = true
    /// How the channel ended (`.some(nil)` for an EOF), once it did.
    var ending: TransportError??
    /// What arrived before the sink did. NIO reads a socket to its end when the peer closes,
    /// asked or not: a captive portal's page, or a refusal that beat `start`, lands here
    /// (bounded by the kernel's receive buffer, as nothing more can follow an EOF).
    var early: ByteBuffer?
  }

  private let state = Mutex(State())

  package init() {}

  /// On the event loop, where every read and the end are handled, so what came early is
  /// delivered first and in order, then the end if it came too.
  package func start(_ sink: any TransportSink, on channel: any Channel) {
    channel.eventLoop.execute {
      let (early, ending) = self.state.withLock { state in
        if state.ending == nil { state.sink = sink }
        defer { state.early = nil }
        return (state.early, state.ending)
      }
      if let early, !sink.received(early) { self.state.withLock { $0.wantsMore = false } }
      if let failure = ending {
        sink.ended(failure)
      } else {
        channel.read()
      }
    }
  }

  package func resumeReading(on channel: any Channel) {
    channel.eventLoop.execute {
      guard let sink = self.state.withLock({ $0.sink }), sink.readingResumes() else { return }
      self.state.withLock { $0.wantsMore = true }
      channel.read()
    }
  }

  package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // Passed on as is: the core reads straight from NIO's buffer, with no copy here.
    let bytes = unwrapInboundIn(data)
    let sink = state.withLock { state -> (any TransportSink)? in
      if state.sink == nil, state.ending == nil {
        var buffered = state.early ?? ByteBuffer()
        var incoming = bytes
        buffered.writeBuffer(&incoming)
        state.early = buffered
      }
      return state.sink
    }
    guard let sink else { return }
    let wantsMore = sink.received(bytes)
    if !wantsMore { state.withLock { $0.wantsMore = false } }
  }

  package func read(context: ChannelHandlerContext) {
    guard context.channel.isWritable else { return }
    if state.withLock({ $0.wantsMore && $0.sink != nil }) { context.read() }
  }

  package func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable, state.withLock({ $0.wantsMore && $0.sink != nil }) {
      context.read()
    }
    context.fireChannelWritabilityChanged()
  }

  package func channelInactive(context: ChannelHandlerContext) {
    endSoon(with: nil, on: context.eventLoop)
    context.fireChannelInactive()
  }

  package func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let sslError = error as? NIOSSLError, case .uncleanShutdown = sslError {
      // The peer closed TCP without a TLS close_notify: an ordinary EOF here.
      endSoon(with: nil, on: context.eventLoop)
    } else if error is NIOSSLError || error is BoringSSLError {
      endSoon(with: .tls("\(error)"), on: context.eventLoop)
    } else {
      endSoon(with: .io("\(error)"), on: context.eventLoop)
    }
    context.close(promise: nil)
  }

  /// On the next turn of the loop: this may run inside a `close` or `write` the sink itself
  /// made, and the sink must not be re-entered.
  private func endSoon(with failure: TransportError?, on loop: any EventLoop) {
    loop.execute { self.end(with: failure) }
  }

  private func end(with failure: TransportError?) {
    let sink = state.withLock { state -> (any TransportSink)? in
      guard state.ending == nil else { return nil }
      state.ending = .some(failure)
      defer { state.sink = nil }
      return state.sink
    }
    sink?.ended(failure)
  }
}
