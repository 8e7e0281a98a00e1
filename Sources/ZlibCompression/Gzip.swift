import CZlib

/// A whole file in the gzip format (RFC 1952), for an HTTP response's `Content-Encoding:
/// gzip`: made once per file and served to every client that accepts it.
public enum Gzip {
  /// `bytes` compressed at `level` (9: the smallest, since it is done once).
  public static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8] {
    // zlib keeps the stream's address in its state: it must not move between calls.
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    // Window bits 15 + 16: zlib writes the gzip header and trailer.
    let status = deflateInit2_(
      stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    precondition(status == Z_OK, "zlib failed to start")
    defer {
      deflateEnd(stream)
      stream.deallocate()
    }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(bytes.count))) + 32)
    var input = bytes
    let produced = input.withUnsafeMutableBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target -> Int in
        stream.pointee.next_in = source.baseAddress
        stream.pointee.avail_in = uInt(source.count)
        stream.pointee.next_out = target.baseAddress
        stream.pointee.avail_out = uInt(target.count)
        // The bound holds the whole output: one call finishes the stream.
        let finished = CZlib.deflate(stream, Z_FINISH)
        precondition(finished == Z_STREAM_END, "zlib's bound was too small")
        return target.count - Int(stream.pointee.avail_out)
      }
    }
    return Array(output[..<produced])
  }
}
