import Foundation
import QnA
import RFC6455
import TestSupport

/// A WebSocket written by hand over a blocking TCP socket, to send frames no client library
/// would (a vote in two frames, a join and a vote in one write); no extension offered, so the
/// server's frames come uncompressed.
final class RawSocket {
  private let fd: Int32
  private var buffered: [UInt8] = []
  private var random = SplitMix64(seed: 7)
  private let codec = WireCodec()

  init(port: Int, path: String = "/socket") throws {
    guard let fd = loopbackConnection(port: port) else { throw Failure("cannot connect") }
    self.fd = fd
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    write(
      Array(
        ("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
          + "Sec-WebSocket-Version: 13\r\n\r\n").utf8))
    while true {
      if let end = buffered.firstRange(of: Array("\r\n\r\n".utf8)) {
        let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 101") else { throw Failure("not upgraded: \(head)") }
        buffered.removeSubrange(..<end.upperBound)
        return
      }
      try fill()
    }
  }

  deinit { close(fd) }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// One frame of `opcode`, masked as a client's must be.
  static func frame(
    _ opcode: Opcode, fin: Bool = true, _ payload: [UInt8], random: inout SplitMix64
  )
    -> [UInt8]
  {
    FrameEncoder.encode(
      opcode: opcode, fin: fin, payload: payload,
      maskingKey: MaskingKey.random(using: &random))
  }

  /// `message` as one text frame.
  func frame(_ message: WireMessage) -> [UInt8] {
    Self.frame(.text, codec.encode(message), random: &random)
  }

  func frame(_ opcode: Opcode, fin: Bool = true, _ payload: [UInt8]) -> [UInt8] {
    Self.frame(opcode, fin: fin, payload, random: &random)
  }

  /// Bytes as they are, in one `write`.
  func write(_ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      sent += count
    }
  }

  /// The next message from the server: `nil` once it closed.
  func message() throws -> WireMessage? {
    while true {
      if let (opcode, payload) = takeFrame() {
        switch opcode {
        case 0x1, 0x2: return try codec.decode(payload)
        case 0x8: return nil
        default: continue
        }
      }
      try fill()
    }
  }

  /// Messages until one that `matches`; `nil` if the server closed first.
  func message(where matches: (WireMessage) -> Bool) throws -> WireMessage? {
    while let next = try message() {
      if matches(next) { return next }
    }
    return nil
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { throw Failure("the server closed the connection or went quiet") }
    buffered += chunk[..<count]
  }

  /// A whole unmasked frame from the server, when buffered.
  private func takeFrame() -> (opcode: UInt8, payload: [UInt8])? {
    guard buffered.count >= 2 else { return nil }
    var length = Int(buffered[1] & 0x7F)
    var start = 2
    if length == 126 {
      guard buffered.count >= 4 else { return nil }
      length = Int(buffered[2]) << 8 | Int(buffered[3])
      start = 4
    } else if length == 127 {
      guard buffered.count >= 10 else { return nil }
      length = buffered[2..<10].reduce(0) { $0 << 8 | Int($1) }
      start = 10
    }
    guard buffered.count >= start + length else { return nil }
    let frame = (buffered[0] & 0x0F, Array(buffered[start..<(start + length)]))
    buffered.removeSubrange(..<(start + length))
    return frame
  }
}
