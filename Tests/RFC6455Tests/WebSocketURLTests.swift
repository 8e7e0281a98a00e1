import RFC6455
import TestSupport
import Testing

@Suite("WebSocket URLs (RFC 6455 §3)")
struct WebSocketURLTests {
  @Test func defaultPortsAndPaths() throws {
    let plain = try WebSocketURL("ws://Example.com")
    #expect(plain.host == "example.com" && plain.port == 80 && !plain.isSecure)
    #expect(plain.requestTarget == "/" && plain.hostHeader == "example.com")
    let secure = try WebSocketURL("wss://example.com/socket?room=a&b=1")
    #expect(secure.port == 443 && secure.isSecure)
    #expect(secure.requestTarget == "/socket?room=a&b=1" && secure.hostHeader == "example.com")
    #expect(try WebSocketURL("WS://h?x=1").requestTarget == "/?x=1")
  }

  @Test func explicitPortsAppearInTheHostHeaderOnlyWhenNotDefault() throws {
    #expect(try WebSocketURL("ws://h:8080/socket").hostHeader == "h:8080")
    #expect(try WebSocketURL("ws://h:80/").hostHeader == "h")
    #expect(try WebSocketURL("wss://h:443/").hostHeader == "h")
    #expect(try WebSocketURL("wss://h:80/").hostHeader == "h:80")
  }

  @Test func ipv6LiteralsAreBracketedInTheHostHeader() throws {
    let url = try WebSocketURL("ws://[::1]:9001/x")
    #expect(url.host == "::1" && url.port == 9001)
    #expect(url.hostHeader == "[::1]:9001")
    #expect(try WebSocketURL("ws://[2001:db8::7]/").hostHeader == "[2001:db8::7]")
  }

  @Test func refusesWhatCannotBeAWebSocketURL() {
    #expect(throws: URLError.unsupportedScheme("http")) { try WebSocketURL("http://h/") }
    #expect(throws: URLError.userInfoNotAllowed) { try WebSocketURL("ws://user:pw@h/") }
    #expect(throws: URLError.missingScheme("h:80")) { try WebSocketURL("h:80") }
    #expect(throws: URLError.missingHost) { try WebSocketURL("ws:///path") }
    #expect(throws: URLError.invalidPort("0")) { try WebSocketURL("ws://h:0/") }
    #expect(throws: URLError.invalidPort("65536")) { try WebSocketURL("ws://h:65536/") }
    #expect(throws: URLError.invalidPort("8a")) { try WebSocketURL("ws://h:8a/") }
    #expect(throws: URLError.fragmentNotAllowed("#top")) { try WebSocketURL("ws://h/p#top") }
    #expect(throws: URLError.invalidHost("[::1")) { try WebSocketURL("ws://[::1/") }
    #expect(throws: URLError.invalidHost("bad host")) { try WebSocketURL("ws://bad host/") }
    #expect(throws: URLError.invalidCharacter(0x0A)) { try WebSocketURL("ws://h/a\nHost: evil") }
  }

  @Test func encodesSpacesAndNonASCIIInThePath() throws {
    #expect(try WebSocketURL("ws://h/a b/ü").requestTarget == "/a%20b/%C3%BC")
  }

  @Test func ipv6ZoneIdsAreForTheTransportNotTheHostHeader() throws {
    let url = try WebSocketURL("ws://[fe80::1%25eth0]:9000/")
    #expect(url.host == "fe80::1%eth0")
    #expect(url.hostHeader == "[fe80::1]:9000")
    #expect(throws: URLError.invalidHost("[::1%\r\nX-Evil: 1]")) {
      try WebSocketURL("ws://[::1%\r\nX-Evil: 1]/")
    }
    #expect(throws: URLError.invalidHost("[::1%eth0]")) { try WebSocketURL("ws://[::1%eth0]/") }
  }

  @Test func requestsRefuseURLsBuiltFieldByFieldWithUnsafeBytes() {
    var random = SplitMix64(seed: 1)
    for url in [
      WebSocketURL(isSecure: false, host: "h", requestTarget: "/a\r\nX: y"),
      WebSocketURL(isSecure: false, host: "h\r\nX: y"),
      WebSocketURL(isSecure: false, host: "h", requestTarget: "no-slash"),
    ] {
      #expect(throws: HandshakeRequestError.invalidURL(url.description)) {
        try HandshakeRequest(url: url, random: &random)
      }
    }
  }
}
