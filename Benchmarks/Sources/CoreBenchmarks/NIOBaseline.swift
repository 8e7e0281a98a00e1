import NIOCore
import NIOEmbedded
import NIOWebSocket

/// SwiftNIO's frame decoder (with its aggregator, so both sides deliver whole messages) and
/// encoder, driven through an EmbeddedChannel as a NIO pipeline would drive them.
enum NIOBaseline {
  static func decode(_ reads: [ByteBuffer]) throws -> Int {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandlers([
      ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 24)),
      NIOWebSocketFrameAggregator(
        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 10,
        maxAccumulatedFrameSize: 1 << 24),
    ])
    var delivered = 0
    for read in reads {
      try channel.writeInbound(read)
      while let frame = try channel.readInbound(as: WebSocketFrame.self) {
        delivered += frame.data.readableBytes
      }
    }
    _ = try channel.finish()
    return delivered
  }

  static func encode(_ payload: ByteBuffer, opcode: WebSocketOpcode, count: Int) throws -> Int {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandler(WebSocketFrameEncoder())
    var produced = 0
    for _ in 0..<count {
      let frame = WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: payload)
      try channel.writeOutbound(frame)
      while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
        produced += buffer.readableBytes
      }
    }
    _ = try channel.finish()
    return produced
  }
}

/// The floor: copying the same payload bytes once, message by message.
enum MemcpyBaseline {
  static func copy(_ payload: [UInt8], count: Int) -> Int {
    var destination = [UInt8](repeating: 0, count: payload.count)
    var copied = 0
    payload.withUnsafeBytes { source in
      destination.withUnsafeMutableBytes { target in
        for _ in 0..<count {
          if let base = source.baseAddress, source.count > 0 {
            target.baseAddress!.copyMemory(from: base, byteCount: source.count)
          }
          copied &+= Int(target[copied & (target.count - 1)])
        }
      }
    }
    return copied
  }
}
