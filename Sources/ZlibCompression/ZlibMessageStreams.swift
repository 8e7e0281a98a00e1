import CZlib

#if canImport(RFC6455)
  import RFC6455
#endif

/// One direction of permessage-deflate without context takeover, for a server that shares its
/// work: a deflater whose every message starts from a fresh state (so the same message
/// compresses to the same bytes for every socket with the same window), used by one caller at
/// a time, and an inflater whose state lives only while a message is inflated.
public final class ZlibMessageDeflater: @unchecked Sendable {
  // @unchecked: its owner serialises calls (a lock around each `deflate`).
  private let stream: UnsafeMutablePointer<z_stream>
  private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

  /// `windowBits` 9–15 (zlib's raw deflate has no 8: a peer asking for 8 gets messages
  /// uncompressed instead).
  public init(windowBits: Int, level: Int32, memoryLevel: Int32) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = deflateInit2_(
      stream, level, Z_DEFLATED, -Int32(min(15, max(9, windowBits))), memoryLevel,
      Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib failed to start")
  }

  deinit {
    deflateEnd(stream)
    stream.deallocate()
  }

  /// One whole message, compressed from a fresh state, without RFC 7692's 00 00 FF FF tail.
  public func deflate(_ message: UnsafeRawBufferPointer) -> [UInt8] {
    defer { deflateReset(stream) }
    return deflateMessage(stream, message, chunk: &chunk)
  }

}

/// Inflates the messages of one connection, with the largest window (whatever the peer agreed
/// to, it is within it). Without context takeover its zlib state exists only between a
/// message's first compressed frame and its last: an idle socket holds none.
public final class ZlibMessageInflater: @unchecked Sendable {
  // @unchecked: one connection uses it, one frame at a time.
  private var stream: UnsafeMutablePointer<z_stream>?
  private let keepsContext: Bool
  private var chunk = [UInt8](repeating: 0, count: 0)

  /// `keepsContext`: the peer may refer back to earlier messages (context takeover).
  public init(keepsContext: Bool) { self.keepsContext = keepsContext }

  deinit { end() }

  private func end() {
    guard let stream else { return }
    inflateEnd(stream)
    stream.deallocate()
    self.stream = nil
    chunk = []
  }

  private func started() -> UnsafeMutablePointer<z_stream> {
    if let stream { return stream }
    let fresh = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    fresh.initialize(to: z_stream())
    let status = inflateInit2_(fresh, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib failed to start")
    stream = fresh
    chunk = [UInt8](repeating: 0, count: 16 * 1024)
    return fresh
  }

  /// Inflates one frame of a compressed message, appending to `output`; throws rather than
  /// let `output` pass `limit`. `final`: the message ends with this frame.
  public func inflate(
    _ input: UnsafeRawBufferPointer, final: Bool, into output: inout [UInt8], limit: Int
  ) throws(InflateError) {
    let stream = started()
    do {
      try inflateChunks(stream, input, chunk: &chunk, into: &output, limit: limit)
      if final {
        let tail = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
        defer { tail.deallocate() }
        tail.copyBytes(from: ZlibCompressor.tail)
        try inflateChunks(
          stream, UnsafeRawBufferPointer(tail), chunk: &chunk, into: &output, limit: limit)
      }
    } catch {
      end()
      throw error
    }
    guard final else { return }
    if keepsContext { return }
    end()
  }
}

/// Inflates whole one-frame messages of peers that agreed to no context takeover, one after
/// another, for any of them: its zlib state is reset between messages rather than made and
/// freed for each, so one of these serves every socket of an event loop.
public final class ZlibResettingInflater: @unchecked Sendable {
  // @unchecked: one thread (an event loop) uses it, one message at a time.
  private let stream: UnsafeMutablePointer<z_stream>
  private var chunk = [UInt8](repeating: 0, count: 4 * 1024)
  /// RFC 7692's 00 00 FF FF, fed after each message's bytes.
  private let tail: UnsafeMutableRawBufferPointer

  public init() {
    tail = .allocate(byteCount: ZlibCompressor.tail.count, alignment: 1)
    tail.copyBytes(from: ZlibCompressor.tail)
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let status = inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib failed to start")
  }

  deinit {
    inflateEnd(stream)
    stream.deallocate()
    tail.deallocate()
  }

  /// One whole message (its only frame's payload, without RFC 7692's tail), inflated into
  /// `output` (emptied first); throws rather than let it pass `limit`.
  public func inflate(
    _ message: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int
  ) throws(InflateError) {
    output.removeAll(keepingCapacity: true)
    defer { inflateReset(stream) }
    try inflateChunks(stream, message, chunk: &chunk, into: &output, limit: limit)
    try inflateChunks(
      stream, UnsafeRawBufferPointer(tail), chunk: &chunk, into: &output, limit: limit)
  }
}
