import Synchronization
import ZlibCompression

/// The server's compressors, one per window size a peer asked for, shared by every socket:
/// without server context takeover each message is compressed from a fresh state, so one
/// compression serves every socket with that window (RFC 7692 §7.1.1.1). A socket keeps no
/// compressor of its own.
package final class CompressorPool: Sendable {
  private let level: Int32
  private let memoryLevel: Int32
  /// Idle compressors by window size, made as peers need them, kept up to `pooled` each.
  private let deflaters = Mutex<[Int: [ZlibMessageDeflater]]>([:])
  /// Compressors kept per window: one per core, and a few for tasks between them.
  package static let pooled = 4
  /// The largest window the server compresses with (a smaller one than a peer allows is
  /// always valid for it): a peer asking for more is given this.
  package let maxWindowBits: Int
  /// Messages smaller than this go uncompressed: deflate's block header and the frame's
  /// bit would make them larger, or save nothing worth a peer's inflate.
  package static let minimumSize = 64

  package init(level: Int, memoryLevel: Int, maxWindowBits: Int = 15) {
    self.level = Int32(level)
    self.memoryLevel = Int32(memoryLevel)
    self.maxWindowBits = min(15, max(9, maxWindowBits))
  }

  /// How a socket whose peer allows this window takes its frames: sockets that would get the
  /// same bytes share a framing.
  package func framing(peerWindowBits: Int) -> Framing {
    // zlib has no raw deflate with an 8-bit window: such a peer gets messages uncompressed.
    peerWindowBits >= 9 ? .deflate(windowBits: min(peerWindowBits, maxWindowBits)) : .plain
  }

  /// `message` compressed for a peer with this window, or `nil` when compressing does not
  /// pay (too small, or no smaller): RFC 7692 lets each message choose, RSV1 clear.
  package func compress(_ message: UnsafeRawBufferPointer, windowBits: Int) -> [UInt8]? {
    guard message.count >= Self.minimumSize, (9...15).contains(windowBits) else { return nil }
    let bits = min(windowBits, maxWindowBits)
    // A compressor is taken out of the pool to work, so that compressions run side by side
    // (replies, pages, the broadcast) and none waits behind another's zlib call.
    let deflater =
      deflaters.withLock { $0[bits]?.popLast() }
      ?? ZlibMessageDeflater(windowBits: bits, level: level, memoryLevel: memoryLevel)
    let compressed = deflater.deflate(message)
    deflaters.withLock { pool in
      if pool[bits, default: []].count < Self.pooled { pool[bits, default: []].append(deflater) }
    }
    return compressed.count < message.count - 8 ? compressed : nil
  }
}
