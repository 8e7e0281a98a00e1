import NIOCore
import NIOPosix
import NIOSSL
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

  public func connect(to url: WebSocketURL, tls: TLSOptions, timeout: Duration)
    async throws(TransportError) -> any TransportChannel
  {
    let sslContext = try url.isSecure ? Self.makeSSLContext(tls) : nil
    // SNI and name verification use host names; an IP literal is verified against IP SANs.
    let serverName = (try? SocketAddress(ipAddress: url.host, port: 0)) == nil ? url.host : nil
    let bridge = InboundBridge()
    let bootstrap = ClientBootstrap(group: group)
      .connectTimeout(.nanoseconds(max(1_000_000, timeout.nanoseconds)))
      .channelOption(.autoRead, value: false)
      .channelOption(.socketOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          if let sslContext {
            let handler = try NIOSSLClientHandler(context: sslContext, serverHostname: serverName)
            try channel.pipeline.syncOperations.addHandler(handler)
          }
          try channel.pipeline.syncOperations.addHandler(bridge)
        }
      }
    do {
      let channel = try await bootstrap.connect(host: url.host, port: url.port).get()
      return NIOTransportChannel(channel: channel, bridge: bridge)
    } catch {
      if case ChannelError.connectTimeout = error { throw .connectTimedOut(timeout) }
      throw .connectFailed("\(url.host):\(url.port): \(Self.reason(for: error))")
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

  func read() async throws(TransportError) -> ByteBuffer? {
    try await bridge.read(from: channel)
  }

  func write(_ chunks: [[UInt8]], completion: (@Sendable (TransportError?) -> Void)?) {
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

  func close() {
    channel.close(promise: nil)
  }
}

/// Hands what the channel reads to one async reader. autoRead is off: the bridge keeps
/// reading from the event loop while fewer than `maxBufferedChunks` chunks wait, and pauses
/// past that until the reader catches up, so an unread backlog stays in the kernel (and TCP
/// slows the peer) instead of growing in memory.
final class InboundBridge: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer

  static let maxBufferedChunks = 4

  private struct State {
    var chunks: [ByteBuffer] = []
    var ended = false
    var failure: TransportError?
    var reader: CheckedContinuation<ByteBuffer?, any Error>?
    /// No socket read is outstanding; the reader must ask for one.
    var paused = true
  }

  private let state = Mutex(State())

  func read(from channel: any Channel) async throws(TransportError) -> ByteBuffer? {
    do {
      return try await withCheckedThrowingContinuation { continuation in
        enum Next {
          case chunk(ByteBuffer, resumeReading: Bool)
          case end(TransportError?)
          case wait(resumeReading: Bool)
        }
        let next = state.withLock { state -> Next in
          let resume = state.paused && !state.ended
          if !state.chunks.isEmpty {
            let chunk = state.chunks.removeFirst()
            let resumeNow = resume && state.chunks.count < Self.maxBufferedChunks
            if resumeNow { state.paused = false }
            return .chunk(chunk, resumeReading: resumeNow)
          }
          if state.ended { return .end(state.failure) }
          state.reader = continuation
          if resume { state.paused = false }
          return .wait(resumeReading: resume)
        }
        switch next {
        case .chunk(let bytes, let resumeReading):
          if resumeReading { channel.read() }
          continuation.resume(returning: bytes)
        case .end(nil): continuation.resume(returning: nil)
        case .end(let error?): continuation.resume(throwing: error)
        case .wait(let resumeReading): if resumeReading { channel.read() }
        }
      }
    } catch let error as TransportError {
      throw error
    } catch {
      throw .io("\(error)")
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // Passed on as is: the core reads straight from NIO's buffer, with no copy here.
    let bytes = unwrapInboundIn(data)
    let reader = state.withLock { state -> CheckedContinuation<ByteBuffer?, any Error>? in
      if let reader = state.reader {
        state.reader = nil
        return reader
      }
      state.chunks.append(bytes)
      return nil
    }
    reader?.resume(returning: bytes)
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    // Keep reading while there is room; otherwise pause until the reader catches up.
    let keepReading = state.withLock { state -> Bool in
      let room = state.chunks.count < Self.maxBufferedChunks
      state.paused = !room
      return room
    }
    if keepReading { context.read() }
  }

  func channelInactive(context: ChannelHandlerContext) {
    end(with: nil)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let sslError = error as? NIOSSLError, case .uncleanShutdown = sslError {
      // The peer closed TCP without a TLS close_notify: an ordinary EOF here.
      end(with: nil)
    } else if error is NIOSSLError || error is BoringSSLError {
      end(with: .tls("\(error)"))
    } else {
      end(with: .io("\(error)"))
    }
    context.close(promise: nil)
  }

  private func end(with failure: TransportError?) {
    let reader = state.withLock { state -> CheckedContinuation<ByteBuffer?, any Error>? in
      if !state.ended {
        state.ended = true
        state.failure = failure
      }
      defer { state.reader = nil }
      return state.chunks.isEmpty ? state.reader : nil
    }
    if let reader {
      if let failure { reader.resume(throwing: failure) } else { reader.resume(returning: nil) }
    }
  }
}
