import Foundation
import TestSupport
import Testing

@testable import QnAServer

/// A join code is the only secret an attendee needs: whatever the route and method, a code no
/// session has is a wrong guess, answered at the address's turn with the same 404, and a
/// right code is never slowed. On the server's defaults, from loopback (no exemption).
@Suite("Join codes cannot be enumerated", .serialized)
struct JoinCodeGuessTests {
  @Test func everyRouteAnswersAWrongCodeAtItsTurnAndARightOneAtOnce() async throws {
    let server = try await ServerUnderTest()
    let created = try await server.http(
      "POST", "/api/sessions", body: "{\"title\": \"Keynote\"}",
      headers: ["Content-Type": "application/json"])
    let object = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any]
    let code = try #require(object?["code"] as? String)
    let upgrade =
      "GET /s/ZZZZZ3/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Sec-WebSocket-Version: 13\r\n\r\n"
    let started = ContinuousClock.now
    // One wrong guess by each way in, one after another: turns at 0, 0.25, 0.75, 1.75 and
    // 3.75 s, wherever they were sent.
    #expect(try await server.http("GET", "/s/ZZZZZ1/login").status == 404)
    #expect(try await server.http("POST", "/s/ZZZZZ2/login", body: "token=x").status == 404)
    #expect(try await server.raw(upgrade, headOnly: true).status == 404)
    #expect(try await server.http("POST", "/s/ZZZZZ4/logout").status == 404)
    #expect(try await server.http("GET", "/s/ZZZZZ5/api/questions").status == 404)
    let elapsed = ContinuousClock.now - started
    #expect(elapsed >= .milliseconds(3500), "\(elapsed)")
    let right = ContinuousClock.now
    #expect(try await server.http("GET", "/s/\(code)/login").status == 200)
    #expect(ContinuousClock.now - right < .milliseconds(500), "a right code waits for nothing")
    await server.stop()
  }

  @Test func anIPv6AddressCountsAsItsSlash64() {
    let key = LoginThrottle.key("2001:db8:1:2:aaaa::1")
    #expect(key == LoginThrottle.key("2001:db8:1:2:ffff:ffff:ffff:ffff"))
    #expect(key != LoginThrottle.key("2001:db8:1:3::1"))
    #expect(LoginThrottle.key("::ffff:192.0.2.7") == "192.0.2.7")
    #expect(LoginThrottle.key("192.0.2.7") == "192.0.2.7")
    #expect(LoginThrottle.key("::1") != LoginThrottle.key("::ffff:127.0.0.1"))
  }
}
