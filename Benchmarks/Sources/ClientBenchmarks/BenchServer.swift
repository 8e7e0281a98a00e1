import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The local server both clients are measured against, on its own event-loop thread.
/// `/flood?count=N&size=S&kind=text|binary` sends N messages of S bytes as fast as the
/// connection takes them (pre-encoded, so the server outpaces both clients); any other path
/// echoes every message.
enum BenchServer {
  static func start(on group: any EventLoopGroup) async throws -> (channel: any Channel, port: Int)
  {
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        let upgrader = NIOWebSocketServerUpgrader(
          maxFrameSize: 1 << 24,
          shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
          upgradePipelineHandler: { channel, head in
            channel.eventLoop.makeCompletedFuture {
              try channel.pipeline.syncOperations.addHandler(BenchHandler())
              if let flood = FloodWriter(uri: head.uri) {
                try channel.pipeline.syncOperations.addHandler(flood, position: .first)
              }
            }
          })
        return channel.pipeline.configureHTTPServerPipeline(
          withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return (channel, channel.localAddress?.port ?? 0)
  }
}

/// Answers the client's frames: echoes messages, answers pings and closes.
final class BenchHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text, .binary:
      context.writeAndFlush(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: frame.opcode, data: frame.unmaskedData)),
        promise: nil)
    case .ping:
      context.writeAndFlush(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)),
        promise: nil)
    case .connectionClose:
      var data = frame.unmaskedData
      let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
      context.writeAndFlush(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
      )
      .whenComplete { _ in context.close(promise: nil) }
    default:
      break
    }
  }
}

/// `/flood`: writes pre-encoded frames straight to the socket, in front of NIOWebSocket's
/// encoder, as fast as the connection takes them. Encoding 64-byte frames one at a time made
/// this server, not the clients under test, the bottleneck of the receive rows.
final class FloodWriter: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private var remaining: Int
  private let frameSize: Int
  private let header: [UInt8]
  private let payloadByte = UInt8(ascii: "q")
  /// A run of whole frames written with one call (the large ones are one frame each).
  private var run = ByteBuffer()
  private var framesPerRun = 1

  init?(uri: String) {
    guard uri.hasPrefix("/flood") else { return nil }
    var query: [String: String] = [:]
    for pair in uri.split(separator: "?").last?.split(separator: "&") ?? [] {
      let parts = pair.split(separator: "=")
      if parts.count == 2 { query[String(parts[0])] = String(parts[1]) }
    }
    remaining = Int(query["count"] ?? "") ?? 0
    let size = Int(query["size"] ?? "") ?? 0
    let opcode: UInt8 = query["kind"] == "binary" ? 0x82 : 0x81
    if size < 126 {
      header = [opcode, UInt8(size)]
    } else if size < 65536 {
      header = [opcode, 126, UInt8(size >> 8), UInt8(size & 0xFF)]
    } else {
      header = [opcode, 127] + (0..<8).map { UInt8(truncatingIfNeeded: size >> (56 - 8 * $0)) }
    }
    frameSize = header.count + size
  }

  func handlerAdded(context: ChannelHandlerContext) {
    framesPerRun = max(1, (64 << 10) / frameSize)
    run = context.channel.allocator.buffer(capacity: framesPerRun * frameSize)
    for _ in 0..<framesPerRun {
      run.writeBytes(header)
      run.writeRepeatingByte(payloadByte, count: frameSize - header.count)
    }
    flood(context: context)
  }

  private func flood(context: ChannelHandlerContext) {
    var wrote = false
    while remaining > 0 && context.channel.isWritable {
      let frames = min(remaining, framesPerRun)
      remaining -= frames
      context.write(wrapOutboundOut(run.getSlice(at: 0, length: frames * frameSize)!), promise: nil)
      wrote = true
    }
    if wrote { context.flush() }
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable && remaining > 0 { flood(context: context) }
    context.fireChannelWritabilityChanged()
  }
}
