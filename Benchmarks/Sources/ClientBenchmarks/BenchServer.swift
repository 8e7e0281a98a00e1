import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The local server both clients are measured against, on its own event-loop thread.
/// `/flood?count=N&size=S&kind=text|binary` sends N messages of S bytes as fast as the
/// connection takes them; `/echo` sends every message back.
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
            channel.pipeline.addHandler(BenchHandler(uri: head.uri))
          })
        return channel.pipeline.configureHTTPServerPipeline(
          withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return (channel, channel.localAddress?.port ?? 0)
  }
}

final class BenchHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let uri: String
  private var remaining = 0
  private var payload = ByteBuffer()
  private var opcode = WebSocketOpcode.text

  init(uri: String) { self.uri = uri }

  func handlerAdded(context: ChannelHandlerContext) {
    guard uri.hasPrefix("/flood") else { return }
    var query: [String: String] = [:]
    for pair in uri.split(separator: "?").last?.split(separator: "&") ?? [] {
      let parts = pair.split(separator: "=")
      if parts.count == 2 { query[String(parts[0])] = String(parts[1]) }
    }
    remaining = Int(query["count"] ?? "") ?? 0
    let size = Int(query["size"] ?? "") ?? 0
    opcode = query["kind"] == "binary" ? .binary : .text
    payload = context.channel.allocator.buffer(repeating: UInt8(ascii: "q"), count: size)
    flood(context: context)
  }

  /// Writes while the channel is writable; resumes on writability changes.
  private func flood(context: ChannelHandlerContext) {
    var wrote = false
    while remaining > 0 && context.channel.isWritable {
      remaining -= 1
      context.write(
        wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: payload)), promise: nil)
      wrote = true
    }
    if wrote { context.flush() }
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable && remaining > 0 { flood(context: context) }
    context.fireChannelWritabilityChanged()
  }

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
