import Foundation
import RFC6455
import TestSupport
import Testing
import ZlibCompression

/// The server's WebSocket side as RFC 6455 and RFC 7692 have it, with a client that sends
/// the frames no well-behaved client library would: text that is not UTF-8, a compression
/// bomb, a request head with a bad byte. On the server's defaults.
@Suite("qna-server's WebSocket side, frame by frame", .serialized)
struct WebSocketConformanceTests {
  /// A blocking client on a raw socket: the upgrade, masked frames out, one frame in.
  final class RawClient {
    let fd: Int32

    init?(port: Int, deflate: Bool) {
      let offer = deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : ""
      let request =
        "GET /socket HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n\(offer)\r\n"
      guard let fd = loopbackConnection(port: port, sending: request) else { return nil }
      self.fd = fd
      var timeout = timeval(tv_sec: 5, tv_usec: 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      var head: [UInt8] = []
      while !head.ends(with: Array("\r\n\r\n".utf8)) {
        guard let byte = readExactly(1)?.first else { return nil }
        head.append(byte)
      }
      let text = String(decoding: head, as: UTF8.self)
      guard text.hasPrefix("HTTP/1.1 101") else { return nil }
      if deflate, !text.lowercased().contains("permessage-deflate") { return nil }
    }

    deinit { close(fd) }

    func send(opcode: UInt8, payload: [UInt8], rsv1: Bool = false) {
      let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
      var frame: [UInt8] = [0x80 | (rsv1 ? 0x40 : 0) | opcode]
      if payload.count < 126 {
        frame.append(0x80 | UInt8(payload.count))
      } else {
        frame.append(0x80 | 126)
        frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
      }
      frame += mask
      frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
      _ = frame.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    func readExactly(_ count: Int) -> [UInt8]? {
      var out: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: count)
      while out.count < count {
        let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, count - out.count) }
        guard got > 0 else { return nil }
        out += buffer[..<got]
      }
      return out
    }

    /// The close code of the first close frame the server sends (other frames skipped).
    func closeCode() -> UInt16? {
      while let header = readExactly(2) {
        var length = Int(header[1] & 0x7F)
        if length == 126, let extended = readExactly(2) {
          length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127, let extended = readExactly(8) {
          length = extended.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = readExactly(length) else { return nil }
        if header[0] & 0x0F == 0x8 {
          return payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
        }
      }
      return nil
    }
  }

  @Test func textThatIsNotUTF8FailsTheConnectionWith1007() async throws {
    let server = try await ServerUnderTest()
    let port = server.port
    let code = await onOwnThread { () -> UInt16? in
      guard let client = RawClient(port: port, deflate: false) else { return nil }
      client.send(
        opcode: 0x1, payload: Array("{\"bad\": \"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8))
      return client.closeCode()
    }
    #expect(code == 1007, "RFC 6455 §8.1: invalid UTF-8 in a text message")
    await server.stop()
  }

  @Test func aCompressionBombIsRefusedWith1009() async throws {
    let server = try await ServerUnderTest()
    let port = server.port
    let code = await onOwnThread { () -> UInt16? in
      guard let client = RawClient(port: port, deflate: true) else { return nil }
      // 8 MiB of spaces deflate to 8 KiB at level 9, as an attacker packs them, within the
      // 16 KiB frame limit (the client's own level 1 makes 36 KiB, which that limit refuses
      // before any inflating); inflated they pass every limit.
      let compressor = ZlibCompressor(DeflateParameters(), sendsAs: .client, level: 9)
      let bomb = [UInt8](repeating: 0x20, count: 8 << 20).withUnsafeBytes {
        compressor.deflate($0)
      }
      client.send(opcode: 0x1, payload: bomb, rsv1: true)
      return client.closeCode()
    }
    #expect(code == 1009, "RFC 6455 §7.4.1: a message too big to process")
    await server.stop()
  }

  /// Inside a request's body, the parser's error is the server's to answer (the route is
  /// waiting for that body): at once too, not at the idle timeout.
  @Test func aBadChunkInsideABodyIsAnsweredAtOnce() async throws {
    let server = try await ServerUnderTest { $0.adminToken = "a-long-enough-token" }
    let started = ContinuousClock.now
    let response = try await server.raw(
      "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
    #expect(response.status == 400)
    #expect(ContinuousClock.now - started < .seconds(5), "not the 60 s idle timeout")
    await server.stop()
  }

  @Test func aRequestHeadWithABadByteGets400AtOnce() async throws {
    let server = try await ServerUnderTest()
    let started = ContinuousClock.now
    let response = try await server.raw("GET /\u{1} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    #expect(response.status == 400)
    #expect(ContinuousClock.now - started < .seconds(2), "not the 10 s header timeout")
    await server.stop()
  }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
