/// The status line and headers of an HTTP response.
public struct HTTPResponseHead: Sendable, Hashable {
  /// `HTTP/1.1` or `HTTP/1.0`.
  public var version: String
  public var statusCode: Int
  public var reason: String
  public var headers: HTTPHeaders
}

/// Reads an HTTP/1.1 response head from arbitrary chunks, stopping exactly at its end so that
/// the bytes after it (the server's first frames) stay with the caller.
public struct HandshakeResponseParser: Sendable {
  public let maxHeaderBlockSize: Int
  private var buffer: [UInt8] = []

  public init(maxHeaderBlockSize: Int) {
    self.maxHeaderBlockSize = maxHeaderBlockSize
  }

  /// Feeds the next chunk. Returns `nil` while the head is incomplete; otherwise the head and
  /// how many bytes of `chunk` it used (the rest are frame bytes).
  public mutating func parse(_ chunk: UnsafeRawBufferPointer) throws(HandshakeError) -> (
    head: HTTPResponseHead, consumed: Int
  )? {
    let previousCount = buffer.count
    // Never buffer more than the limit plus the terminator we may still be looking for.
    let room = max(0, maxHeaderBlockSize + 4 - previousCount)
    buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk.prefix(room)))
    guard let end = endOfHeaderBlock(searchingFrom: max(0, previousCount - 3)) else {
      if buffer.count > maxHeaderBlockSize { throw .headerBlockTooLarge(limit: maxHeaderBlockSize) }
      return nil
    }
    if end > maxHeaderBlockSize { throw .headerBlockTooLarge(limit: maxHeaderBlockSize) }
    let head = try Self.parseHead(buffer[..<end])
    buffer = []
    return (head, end - previousCount)
  }

  /// The index just past the empty line that ends the head. Lines end in CRLF; a bare LF is
  /// accepted too (RFC 7230 §3.5).
  private func endOfHeaderBlock(searchingFrom start: Int) -> Int? {
    var index = start
    while index < buffer.count {
      if buffer[index] == 0x0A {
        if index >= 1 && buffer[index - 1] == 0x0A { return index + 1 }
        if index >= 2 && buffer[index - 1] == 0x0D && buffer[index - 2] == 0x0A { return index + 1 }
      }
      index += 1
    }
    return nil
  }

  static func parseHead(_ block: ArraySlice<UInt8>) throws(HandshakeError) -> HTTPResponseHead {
    var lines = block.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      line.last == 0x0D ? line.dropLast() : line
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    guard let statusLine = lines.first else { throw .malformedStatusLine("") }
    let (version, code, reason) = try parseStatusLine(statusLine)
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
      let text = String(decoding: line, as: UTF8.self)
      // Folded lines (obs-fold) and names that are not tokens are rejected (RFC 7230 §3.2.4).
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
        line[line.startIndex..<colon].allSatisfy(HTTPSyntax.isTokenByte), colon > line.startIndex
      else { throw .malformedHeaderLine(text) }
      let name = String(decoding: line[..<colon], as: UTF8.self)
      let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingHTTPWhitespace()
      headers.append(name: name, value: value)
    }
    return HTTPResponseHead(version: version, statusCode: code, reason: reason, headers: headers)
  }

  private static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(HandshakeError) -> (
    String, Int, String
  ) {
    let text = String(decoding: line, as: UTF8.self)
    let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2 else { throw .malformedStatusLine(text) }
    let version = String(decoding: parts[0], as: UTF8.self)
    guard version.hasPrefix("HTTP/") else { throw .malformedStatusLine(text) }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      throw .unsupportedHTTPVersion(version)
    }
    guard parts[1].count == 3, parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let code = Int(String(decoding: parts[1], as: UTF8.self))
    else { throw .malformedStatusLine(text) }
    let reason = parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : ""
    return (version, code, reason)
  }
}
