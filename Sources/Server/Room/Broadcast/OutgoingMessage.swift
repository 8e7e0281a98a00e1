import NIOCore
import RFC6455
import Synchronization

/// One message for one socket or for thousands, made once: its JSON, and its frame for each
/// framing as the first socket with that framing needs it. Server frames are unmasked, so a
/// frame is the same bytes for every socket that takes it; writing it is handing over a
/// reference to one buffer.
package final class OutgoingMessage: Sendable {
  /// The message's JSON (for a writer that frames it itself: the per-socket baseline).
  package let payload: ByteBuffer
  private let deflaters: CompressorPool?
  private let frames = Mutex<[Framing: ByteBuffer]>([:])

  package init(_ payload: ByteBuffer, deflaters: CompressorPool?) {
    self.payload = payload
    self.deflaters = deflaters
  }

  package convenience init(_ bytes: [UInt8], deflaters: CompressorPool?) {
    self.init(ByteBuffer(bytes: bytes), deflaters: deflaters)
  }

  /// The whole frame for a socket with this framing, made the first time it is asked for.
  package func frame(for framing: Framing) -> ByteBuffer {
    if let made = frames.withLock({ $0[framing] }) { return made }
    let made = makeFrame(for: framing)
    return frames.withLock { frames in
      if let other = frames[framing] { return other }
      frames[framing] = made
      return made
    }
  }

  private func makeFrame(for framing: Framing) -> ByteBuffer {
    payload.withUnsafeReadableBytes { json in
      if case .deflate(let bits) = framing, let deflaters,
        let compressed = deflaters.compress(json, windowBits: bits)
      {
        return compressed.withUnsafeBytes { Self.frame(of: $0, compressed: true) }
      }
      return Self.frame(of: json, compressed: false)
    }
  }

  /// `payload` as one uncompressed frame, whatever the socket's framing (RFC 7692 lets any
  /// message go uncompressed): a message for one socket, framed without a dictionary of
  /// framings.
  package static func uncompressedFrame(of payload: [UInt8]) -> ByteBuffer {
    payload.withUnsafeBytes { frame(of: $0, compressed: false) }
  }

  /// A final binary frame, unmasked (a server's), RSV1 set when compressed.
  private static func frame(of payload: UnsafeRawBufferPointer, compressed: Bool) -> ByteBuffer {
    let size = FrameEncoder.headerSize(payloadCount: payload.count, masked: false) + payload.count
    var buffer = ByteBufferAllocator().buffer(capacity: size)
    buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { destination in
      FrameEncoder.encode(
        opcode: .binary, compressed: compressed, payload: payload, maskingKey: nil,
        into: destination)
    }
    return buffer
  }
}
