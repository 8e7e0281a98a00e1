import ProxyTunnel
import Testing

@Suite struct HTTPConnectTests {
  func handshake(authorization: String? = nil) throws -> HTTPConnectHandshake {
    try HTTPConnectHandshake(host: "example.com", port: 443, authorization: authorization)
  }

  @Test func theRequestNamesTheTargetAndCarriesCredentials() throws {
    var plain = try handshake()
    #expect(
      String(decoding: plain.start(), as: UTF8.self)
        == "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
    var ipv6 = try HTTPConnectHandshake(host: "::1", port: 80, authorization: "Basic dTpw")
    #expect(
      String(decoding: ipv6.start(), as: UTF8.self)
        == "CONNECT [::1]:80 HTTP/1.1\r\nHost: [::1]:80\r\nProxy-Authorization: Basic dTpw\r\n\r\n")
    #expect(throws: ProxyError.self) {
      try HTTPConnectHandshake(host: "a\r\nX: y", port: 80, authorization: nil)
    }
  }

  @Test func aTwoHundredInPiecesOpensTheTunnelAndKeepsWhatFollows() throws {
    var connect = try handshake()
    let answer = Array("HTTP/1.1 200 Connection established\r\nVia: x\r\n\r\nHELLO".utf8)
    for byte in answer.dropLast(6) { #expect(try connect.receive([byte]) == .waiting) }
    #expect(try connect.receive(answer.suffix(6)) == .established(leftover: Array("HELLO".utf8)))
    var bare = try handshake()
    #expect(try bare.receive(Array("HTTP/1.0 200 OK\n\n".utf8)) == .established(leftover: []))
  }

  @Test(arguments: [
    ("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n", 407, true),
    ("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n", 403, true),
    ("HTTP/1.1 502 Bad Gateway\r\n\r\n", 502, false),
  ])
  func refusalsCarryTheStatus(_ text: String, _ status: Int, _ permanent: Bool) throws {
    var connect = try handshake()
    #expect {
      try connect.receive(Array(text.utf8))
    } throws: { error in
      guard case ProxyError.refused(let got, _) = error else { return false }
      return got == status && (error as! ProxyError).isPermanent == permanent
    }
  }

  @Test func garbageAndEndlessAnswersAreErrors() throws {
    var garbage = try handshake()
    #expect(throws: ProxyError.self) { try garbage.receive(Array("SSH-2.0-OpenSSH\r\n".utf8)) }
    var hostile = try handshake()
    #expect {
      try hostile.receive(Array("HTTP/1.1 999 \u{1B}[31mred\r\n\r\n".utf8))
    } throws: { "\($0)".contains("\\u{1B}") }
    var endless = try handshake()
    _ = try endless.receive(Array("HTTP/1.1 200 OK\r\n".utf8))
    #expect(throws: ProxyError.answerTooLong(limit: HTTPConnectHandshake.answerLimit)) {
      for _ in 0..<2000 { _ = try endless.receive(Array("X-Filler: 0123456789\r\n".utf8)) }
    }
  }
}

@Suite struct SOCKS5Tests {
  @Test func withoutCredentialsANameIsSentForTheProxyToResolve() throws {
    var socks = try SOCKS5Handshake(host: "example.com", port: 443, credentials: nil)
    #expect(socks.start() == [5, 1, 0])
    let request: [UInt8] = [5, 1, 0, 3, 11] + Array("example.com".utf8) + [1, 187]
    #expect(try socks.receive([5, 0]) == .send(request))
    #expect(try socks.receive([5, 0, 0, 1, 127, 0]) == .waiting)
    #expect(try socks.receive([0, 1, 0x1F, 0x90, 42]) == .established(leftover: [42]))
  }

  @Test func addressesGoAsAddresses() throws {
    var v4 = try SOCKS5Handshake(host: "127.0.0.1", port: 80, credentials: nil)
    _ = v4.start()
    #expect(try v4.receive([5, 0]) == .send([5, 1, 0, 1, 127, 0, 0, 1, 0, 80]))
    var v6 = try SOCKS5Handshake(host: "::1", port: 80, credentials: nil)
    _ = v6.start()
    #expect(
      try v6.receive([5, 0])
        == .send([5, 1, 0, 4] + [UInt8](repeating: 0, count: 15) + [1, 0, 80]))
  }

  @Test func credentialsAreOfferedAndChecked() throws {
    let credentials = ProxyCredentials(username: "user", password: "pw")
    var socks = try SOCKS5Handshake(host: "h", port: 1, credentials: credentials)
    #expect(socks.start() == [5, 2, 0, 2])
    #expect(
      try socks.receive([5, 2]) == .send([1, 4] + Array("user".utf8) + [2] + Array("pw".utf8)))
    #expect(try socks.receive([1, 0]) == .send([5, 1, 0, 3, 1, UInt8(ascii: "h"), 0, 1]))
    #expect(socks.closedEarly() == .closedEarly(hint: nil))
    var closing = try SOCKS5Handshake(host: "h", port: 1, credentials: credentials)
    _ = closing.start()
    _ = try closing.receive([5, 2])
    #expect(closing.closedEarly() == .socksAuthenticationFailed, "a close is a rejection here")
    var rejected = try SOCKS5Handshake(host: "h", port: 1, credentials: credentials)
    _ = rejected.start()
    _ = try rejected.receive([5, 2])
    #expect(throws: ProxyError.socksAuthenticationFailed) { try rejected.receive([1, 1]) }
  }

  @Test func refusalsAndBrokenRepliesAreErrors() throws {
    /// The method's answer, then `replies` (when any) as the next read.
    func run(_ method: [UInt8], _ replies: [UInt8]? = nil) throws {
      var socks = try SOCKS5Handshake(host: "h", port: 1, credentials: nil)
      _ = socks.start()
      _ = try socks.receive(method)
      if let replies { _ = try socks.receive(replies) }
    }
    #expect(throws: ProxyError.socksNoAcceptableMethod) { try run([5, 0xFF]) }
    #expect(throws: ProxyError.socksRefused(code: 5)) { try run([5, 0], [5, 5, 0, 1]) }
    #expect(ProxyError.socksRefused(code: 2).isPermanent)
    #expect(!ProxyError.socksRefused(code: 5).isPermanent)
    #expect("\(ProxyError.socksRefused(code: 5))".contains("connection refused"))
    #expect(throws: ProxyError.self) { try run([4, 0]) }
    #expect(throws: ProxyError.self) { try run([5, 2]) }  // user/pass not offered
    #expect(throws: ProxyError.self) { try run([5, 0], [5, 0, 0, 9, 0]) }
    #expect(throws: ProxyError.self) {
      try SOCKS5Handshake(host: String(repeating: "a", count: 256), port: 1, credentials: nil)
    }
    // A reply before the request it answers (the fuzzer's find: read in one piece, the
    // tunnel was taken as open and the request never sent).
    #expect(throws: ProxyError.malformed("the proxy answered a request it had not been sent")) {
      try run([5, 0, 5, 0, 0, 1, 127, 0, 0, 1, 0, 80])
    }
  }
}
