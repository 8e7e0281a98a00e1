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
    var output: [UInt8] = []
    output.reserveCapacity(Int(deflateBound(stream, uLong(message.count))) + 8)
    stream.pointee.next_in = UnsafeMutablePointer(
      mutating: message.baseAddress?.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = uInt(message.count)
    let size = chunk.count
    repeat {
      let produced = chunk.withUnsafeMutableBytes { buffer -> Int in
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(size)
        _ = CZlib.deflate(stream, Z_SYNC_FLUSH)
        return size - Int(stream.pointee.avail_out)
      }
      output.append(contentsOf: chunk[..<produced])
    } while stream.pointee.avail_out == 0
    stream.pointee.next_in = nil
    if output.count >= 4, Array(output.suffix(4)) == ZlibCompressor.tail { output.removeLast(4) }
    return output
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
      try inflateSome(stream, input, into: &output, limit: limit)
      if final {
        let tail = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
        defer { tail.deallocate() }
        tail.copyBytes(from: ZlibCompressor.tail)
        try inflateSome(stream, UnsafeRawBufferPointer(tail), into: &output, limit: limit)
      }
    } catch {
      end()
      throw error
    }
    guard final else { return }
    if keepsContext { return }
    end()
  }

  private func inflateSome(
    _ stream: UnsafeMutablePointer<z_stream>, _ input: UnsafeRawBufferPointer,
    into output: inout [UInt8], limit: Int
  ) throws(InflateError) {
    guard let base = input.baseAddress, !input.isEmpty else { return }
    stream.pointee.next_in = UnsafeMutablePointer(
      mutating: base.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = uInt(input.count)
    defer {
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    let size = chunk.count
    while true {
      let (status, produced) = chunk.withUnsafeMutableBytes { buffer -> (Int32, Int) in
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(size)
        let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
        return (status, size - Int(stream.pointee.avail_out))
      }
      if produced > 0 {
        let room = limit - output.count
        output.append(contentsOf: chunk[..<min(produced, room)])
        guard produced <= room else { throw .tooLarge(limit: limit) }
      }
      switch status {
      case Z_OK:
        if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return }
      case Z_STREAM_END:
        inflateReset(stream)
        if stream.pointee.avail_in == 0 { return }
      case Z_BUF_ERROR:
        return
      default:
        let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
        throw .corrupt(message)
      }
    }
  }
}
