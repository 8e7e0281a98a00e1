import CZlib

// The fuzzer compiles this file into one module with the core (`make fuzz`).
#if canImport(RFC6455)
  import RFC6455
#endif

/// permessage-deflate on the system's zlib: raw deflate streams (no zlib header), flushed
/// with Z_SYNC_FLUSH after each message, whose 00 00 FF FF tail RFC 7692 strips and adds
/// back. Chosen over a package: zlib is on every Linux machine already (Foundation links it),
/// its streaming API lets inflation stop at a byte limit without ever allocating past it,
/// and the binding is this file.
public struct ZlibCompressors: MessageCompressorFactory {
  /// zlib's `memLevel` for the compressor (1–9): memory per socket against speed.
  public var memoryLevel: Int32
  /// zlib's compression level (1–9). 1, zlib's fastest, as `qna-server`'s `--deflate-level`
  /// and gorilla/websocket default to: a client's messages are small, and on 128 KiB of text
  /// (the Autobahn suite's 12.3.16) level 6 spent 3.2 times the CPU for 16% fewer bytes.
  public var level: Int32

  public init(memoryLevel: Int32 = 8, level: Int32 = 1) {
    self.memoryLevel = memoryLevel
    self.level = level
  }

  public func make(_ parameters: DeflateParameters) -> any MessageCompressor {
    ZlibCompressor(parameters, sendsAs: .client, memoryLevel: memoryLevel, level: level)
  }
}

/// One connection's pair of zlib streams.
public final class ZlibCompressor: MessageCompressor, @unchecked Sendable {
  // @unchecked: one connection uses it, under that connection's lock.
  public enum Side: Sendable { case client, server }

  private let deflater: UnsafeMutablePointer<z_stream>
  private let inflater: UnsafeMutablePointer<z_stream>
  private let resetsDeflater: Bool
  private let resetsInflater: Bool
  private var chunk = [UInt8](repeating: 0, count: 16 * 1024)
  /// The tail, where zlib can read it without a temporary pointer.
  private let tailBytes: UnsafeMutableRawBufferPointer = {
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
    bytes.copyBytes(from: ZlibCompressor.tail)
    return bytes
  }()

  static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

  /// `side`: which end this is. A client deflates with the client's window and resets per
  /// the client's no-context-takeover, and inflates what the server sends.
  public init(
    _ parameters: DeflateParameters, sendsAs side: Side, memoryLevel: Int32 = 8, level: Int32 = 1
  ) {
    let ownBits = side == .client ? parameters.clientMaxWindowBits : parameters.serverMaxWindowBits
    resetsDeflater =
      side == .client ? parameters.clientNoContextTakeover : parameters.serverNoContextTakeover
    resetsInflater =
      side == .client ? parameters.serverNoContextTakeover : parameters.clientNoContextTakeover
    deflater = .allocate(capacity: 1)
    deflater.initialize(to: z_stream())
    inflater = .allocate(capacity: 1)
    inflater.initialize(to: z_stream())
    // zlib's raw deflate needs 9 bits at least (the core sends uncompressed when 8 is asked).
    let deflateStatus = deflateInit2_(
      deflater, level, Z_DEFLATED, -Int32(max(9, ownBits)), memoryLevel,
      Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    // The largest window: whatever the peer agreed to send, it is within it.
    let inflateStatus = inflateInit2_(
      inflater, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(deflateStatus == Z_OK && inflateStatus == Z_OK, "zlib failed to start")
  }

  deinit {
    deflateEnd(deflater)
    inflateEnd(inflater)
    deflater.deallocate()
    inflater.deallocate()
    tailBytes.deallocate()
  }

  public func inflate(
    _ input: UnsafeRawBufferPointer, final: Bool, into output: inout [UInt8], limit: Int
  ) throws(InflateError) {
    try inflateSome(input, into: &output, limit: limit)
    guard final else { return }
    try inflateSome(UnsafeRawBufferPointer(tailBytes), into: &output, limit: limit)
    if resetsInflater { inflateReset(inflater) }
  }

  private func inflateSome(
    _ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int
  ) throws(InflateError) {
    try inflateChunks(inflater, input, chunk: &chunk, into: &output, limit: limit)
  }

  public func deflate(_ message: UnsafeRawBufferPointer) -> [UInt8] {
    defer { if resetsDeflater { deflateReset(deflater) } }
    return deflateMessage(deflater, message, chunk: &chunk)
  }

}

/// Inflates `input` on `stream` through `chunk`, appending to `output`, and throws rather than
/// let `output` pass `limit` bytes (what fits is kept, so that the caller judges the same bytes
/// however they came). A final block (BFINAL) resets the stream for the bytes after it.
func inflateChunks(
  _ stream: UnsafeMutablePointer<z_stream>, _ input: UnsafeRawBufferPointer,
  chunk: inout [UInt8], into output: inout [UInt8], limit: Int
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
      // What fits is kept, so that the caller judges the same bytes however they came.
      output.append(contentsOf: chunk[..<min(produced, room)])
      guard produced <= room else { throw .tooLarge(limit: limit) }
    }
    switch status {
    case Z_OK:
      if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return }
    case Z_STREAM_END:
      // A final block (BFINAL): a new stream starts with the next bytes, if any.
      inflateReset(stream)
      if stream.pointee.avail_in == 0 { return }
    case Z_BUF_ERROR:
      return  // no progress possible: everything given is consumed
    default:
      let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
      throw .corrupt(message)
    }
  }
}

/// One whole message deflated on `stream` through `chunk` and flushed with Z_SYNC_FLUSH,
/// without the empty stored block that ends it (00 00 FF FF), which RFC 7692 §7.2.1 drops.
func deflateMessage(
  _ stream: UnsafeMutablePointer<z_stream>, _ message: UnsafeRawBufferPointer,
  chunk: inout [UInt8]
) -> [UInt8] {
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
