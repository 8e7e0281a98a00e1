import RFC6455
import TestSupport
import Testing

@Suite("Opening handshake (RFC 6455 §4.1, §4.2.2)")
struct HandshakeTests {
  /// The RFC's sample nonce, "the sample nonce" in base64.
  static let sampleNonce = utf8("the sample nonce")

  func request(
    _ url: String = "ws://server.example.com/chat", options: HandshakeOptions = HandshakeOptions()
  ) throws -> HandshakeRequest {
    var random = ReplayGenerator(bytes: Self.sampleNonce)
    return try HandshakeRequest(url: WebSocketURL(url), options: options, random: &random)
  }

  func parse(_ bytes: [UInt8], pieces: Int = .max, limit: Int = 16 << 10) throws(HandshakeError)
    -> (HTTPResponseHead, Int)?
  {
    var parser = HandshakeResponseParser(maxHeaderBlockSize: limit)
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + pieces)
      let result = bytes[offset..<end].withUnsafeBytes { chunk in
        Result { () throws(HandshakeError) in try parser.parse(chunk) }
      }
      if let (head, consumed) = try result.get() { return (head, offset + consumed) }
      offset = end
    }
    return nil
  }

  @Test func requestMatchesTheRFCExampleByteForByte() throws {
    let built = try request(
      options: HandshakeOptions(origin: "http://example.com", subprotocols: ["chat", "superchat"]))
    #expect(built.key == "dGhlIHNhbXBsZSBub25jZQ==")
    #expect(
      String(decoding: built.bytes, as: UTF8.self)
        == "GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Origin: http://example.com\r\nSec-WebSocket-Protocol: chat, superchat\r\n\r\n")
    #expect(built.expectedAccept == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func requestCarriesPortQueryIPv6AndExtraHeaders() throws {
    let built = try request(
      "ws://[::1]:8080/socket?x=1",
      options: HandshakeOptions(extraHeaders: [("Authorization", "Bearer abc")]))
    let text = String(decoding: built.bytes, as: UTF8.self)
    #expect(text.hasPrefix("GET /socket?x=1 HTTP/1.1\r\nHost: [::1]:8080\r\n"))
    #expect(text.contains("\r\nAuthorization: Bearer abc\r\n"))
    #expect(!text.contains("Origin") && !text.contains("Sec-WebSocket-Protocol"))
  }

  @Test func keysAreFreshRandomBytes() throws {
    var random = SplitMix64(seed: 1)
    let url = try WebSocketURL("ws://h/")
    let first = try HandshakeRequest(url: url, random: &random)
    let second = try HandshakeRequest(url: url, random: &random)
    #expect(first.key != second.key)
    #expect(first.key.utf8.count == 24 && first.key.hasSuffix("=="))
  }

  @Test func refusesHeadersThatWouldInjectLines() throws {
    #expect(throws: HandshakeRequestError.invalidHeaderValue(name: "X-A")) {
      try request(options: HandshakeOptions(extraHeaders: [("X-A", "v\r\nHost: evil")]))
    }
    #expect(throws: HandshakeRequestError.invalidHeaderValue(name: "X-A")) {
      try request(options: HandshakeOptions(extraHeaders: [("X-A", "v\nX: y")]))
    }
    #expect(throws: HandshakeRequestError.invalidHeaderName("X A")) {
      try request(options: HandshakeOptions(extraHeaders: [("X A", "v")]))
    }
    #expect(throws: HandshakeRequestError.invalidHeaderName("X\r\nY")) {
      try request(options: HandshakeOptions(extraHeaders: [("X\r\nY", "v")]))
    }
    #expect(throws: HandshakeRequestError.reservedHeader("sec-websocket-key")) {
      try request(options: HandshakeOptions(extraHeaders: [("sec-websocket-key", "v")]))
    }
    #expect(throws: HandshakeRequestError.invalidHeaderValue(name: "Origin")) {
      try request(options: HandshakeOptions(origin: "a\r\nb"))
    }
    #expect(throws: HandshakeRequestError.invalidSubprotocol("a b")) {
      try request(options: HandshakeOptions(subprotocols: ["a b"]))
    }
  }

  @Test func parsesTheResponseFromAnyChunkingAndStopsAtItsEnd() throws {
    let built = try request()
    let frame = serverFrame(0x2, utf8("{\"type\":\"handshake\"}"))
    let bytes = switchingProtocols(for: built) + frame
    for pieces in [1, 2, 3, 7, 64, Int.max] {
      let (head, consumed) = try #require(try parse(bytes, pieces: pieces))
      #expect(head.statusCode == 101 && head.reason == "Switching Protocols")
      #expect(consumed == bytes.count - frame.count)
      #expect(try built.validate(head).subprotocol == nil)
    }
  }

  @Test func acceptsBareLineFeedsAndCaseInsensitiveTokens() throws {
    let built = try request()
    let bytes = utf8(
      "HTTP/1.1 101 OK\nupgrade: WebSocket\nconnection: keep-alive, UPGRADE\nsec-websocket-accept: \(built.expectedAccept)\n\n"
    )
    let (head, _) = try #require(try parse(bytes))
    _ = try built.validate(head)
  }

  @Test func refusalCarriesStatusReasonHeadersAndLocation() throws {
    let built = try request()
    let (head, _) = try #require(
      try parse(
        utf8("HTTP/1.1 302 Found\r\nLocation: wss://elsewhere/\r\nContent-Length: 0\r\n\r\n")))
    let error = #expect(throws: HandshakeError.self) { try built.validate(head) }
    #expect(error?.statusCode == 302)
    #expect(error?.location == "wss://elsewhere/")
    #expect(error?.description.contains("302 Found") == true)
    let (unauthorized, _) = try #require(
      try parse(utf8("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\n\r\n")))
    #expect(
      throws: HandshakeError.unexpectedStatus(
        code: 401, reason: "Unauthorized", headers: [("WWW-Authenticate", "Bearer")])
    ) {
      try built.validate(unauthorized)
    }
    let (ok, _) = try #require(try parse(utf8("HTTP/1.1 200 OK\r\n\r\n")))
    #expect(throws: HandshakeError.self) { try built.validate(ok) }
  }

  @Test func validationRejectsEachMissingOrWrongHeader() throws {
    let built = try request(options: HandshakeOptions(subprotocols: ["chat"]))
    let accept = built.expectedAccept
    func validate(_ headers: String) throws {
      let (head, _) = try #require(
        try parse(utf8("HTTP/1.1 101 Switching Protocols\r\n\(headers)\r\n")))
      _ = try built.validate(head)
    }
    #expect(throws: HandshakeError.upgradeNotWebSocket(nil)) {
      try validate("Connection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n")
    }
    #expect(throws: HandshakeError.upgradeNotWebSocket("h2c")) {
      try validate("Upgrade: h2c\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n")
    }
    #expect(throws: HandshakeError.connectionNotUpgrade("close")) {
      try validate("Upgrade: websocket\r\nConnection: close\r\nSec-WebSocket-Accept: \(accept)\r\n")
    }
    #expect(throws: HandshakeError.invalidAccept(expected: accept, received: "")) {
      try validate("Upgrade: websocket\r\nConnection: Upgrade\r\n")
    }
    #expect(throws: HandshakeError.invalidAccept(expected: accept, received: "x\(accept)")) {
      try validate(
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x\(accept)\r\n")
    }
    #expect(throws: HandshakeError.unrequestedSubprotocol("superchat")) {
      try validate(
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\nSec-WebSocket-Protocol: superchat\r\n"
      )
    }
    #expect(throws: HandshakeError.unrequestedExtension("permessage-deflate")) {
      try validate(
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\nSec-WebSocket-Extensions: permessage-deflate\r\n"
      )
    }
    try validate(
      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\nSec-WebSocket-Protocol: chat\r\n"
    )
  }

  @Test func subprotocolOnlyWhenRequested() throws {
    let built = try request()
    let (head, _) = try #require(
      try parse(switchingProtocols(for: built, extraHeaders: "Sec-WebSocket-Protocol: chat\r\n")))
    #expect(throws: HandshakeError.unrequestedSubprotocol("chat")) { try built.validate(head) }
  }

  @Test func malformedResponsesAreErrors() {
    #expect(throws: HandshakeError.malformedStatusLine("garbage")) {
      try parse(utf8("garbage\r\n\r\n"))
    }
    #expect(throws: HandshakeError.unsupportedHTTPVersion("HTTP/2.0")) {
      try parse(utf8("HTTP/2.0 101 OK\r\n\r\n"))
    }
    #expect(throws: HandshakeError.malformedStatusLine("HTTP/1.1 1O1 OK")) {
      try parse(utf8("HTTP/1.1 1O1 OK\r\n\r\n"))
    }
    #expect(throws: HandshakeError.malformedHeaderLine("no colon")) {
      try parse(utf8("HTTP/1.1 101 OK\r\nno colon\r\n\r\n"))
    }
    #expect(throws: HandshakeError.malformedHeaderLine(" folded: x")) {
      try parse(utf8("HTTP/1.1 101 OK\r\nA: b\r\n folded: x\r\n\r\n"))
    }
  }

  @Test func headerBlockLimitIsEnforcedWhateverTheChunking() {
    let huge = utf8("HTTP/1.1 101 OK\r\nX-Big: " + String(repeating: "a", count: 2000) + "\r\n\r\n")
    for pieces in [1, 100, Int.max] {
      #expect(throws: HandshakeError.headerBlockTooLarge(limit: 1024)) {
        try parse(huge, pieces: pieces, limit: 1024)
      }
    }
    // A never-ending header is refused once past the limit, without waiting for its end.
    #expect(throws: HandshakeError.headerBlockTooLarge(limit: 64)) {
      try parse(utf8("HTTP/1.1 101 OK\r\n" + String(repeating: "X: y\r\n", count: 20)), limit: 64)
    }
  }

  @Test func http10CannotUpgrade() throws {
    let built = try request()
    let response = String(decoding: switchingProtocols(for: built), as: UTF8.self).replacingFirst(
      "HTTP/1.1", with: "HTTP/1.0")
    let (head, _) = try #require(try parse(utf8(response)))
    #expect(throws: HandshakeError.unsupportedHTTPVersion("HTTP/1.0")) { try built.validate(head) }
    // A refusal from an HTTP/1.0 proxy still reports its status.
    let (refusal, _) = try #require(try parse(utf8("HTTP/1.0 403 Forbidden\r\n\r\n")))
    #expect(throws: HandshakeError.unexpectedStatus(code: 403, reason: "Forbidden", headers: [])) {
      try built.validate(refusal)
    }
  }
}

extension String {
  func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = firstRange(of: target) else { return self }
    return self[..<range.lowerBound] + replacement + self[range.upperBound...]
  }
}
