import Foundation
import QnAServer
import TestSupport
import Testing

/// A join code is the only secret an attendee needs: whatever the route and method, a code no
/// session has is a wrong guess, answered at once with the same 404; past the address's rate
/// every guess, a right code too, is answered at once with the same 429 and a `Retry-After`.
/// On the server's defaults, from loopback (no exemption).
@Suite("Join codes cannot be enumerated", .serialized)
struct JoinCodeGuessTests {
  static func upgrade(_ code: String) -> String {
    "GET /s/\(code)/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
      + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Sec-WebSocket-Version: 13\r\n\r\n"
  }

  @Test func everyRouteCountsAWrongCodeAndPastTheRateRightAndWrongAreRefusedAlike()
    async throws
  {
    let server = try await ServerUnderTest()
    let created = try await server.http(
      "POST", "/api/sessions", body: "{\"title\": \"Keynote\"}",
      headers: ["Content-Type": "application/json"])
    let object = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any]
    let code = try #require(object?["code"] as? String)
    let started = ContinuousClock.now
    // Wrong guesses by each way in, in turn, until one is refused as over the rate: the
    // burst, and one more for each interval the guesses took, are 404s, at once.
    let ways: [(String) async throws -> HTTPResponse] = [
      { try await server.http("GET", "/s/\($0)/login") },
      { try await server.http("POST", "/s/\($0)/login", body: "token=x") },
      { try await server.raw(Self.upgrade($0), headOnly: true) },
      { try await server.http("POST", "/s/\($0)/logout") },
      { try await server.http("GET", "/s/\($0)/api/questions") },
    ]
    var wrongAnswered = 0
    while wrongAnswered < 3 * GuessThrottle.burst {
      let status = try await ways[wrongAnswered % ways.count]("ZZZZ\(wrongAnswered % 10)Z").status
      if status == 429 { break }
      #expect(status == 404)
      wrongAnswered += 1
    }
    let allowed =
      GuessThrottle.burst + Int((ContinuousClock.now - started) / GuessThrottle.interval)
    #expect(wrongAnswered >= GuessThrottle.burst && wrongAnswered <= allowed, "\(wrongAnswered)")
    // Past the rate: a wrong code and the right one get the same answer.
    let wrong = try await server.http("GET", "/s/ZZZZZZ/login")
    let right = try await server.http("GET", "/s/\(code)/login")
    let rightSocket = try await server.raw(Self.upgrade(code), headOnly: true)
    let elapsed = ContinuousClock.now - started
    for refused in [wrong, right, rightSocket] {
      #expect(refused.status == 429)
      let seconds = Int(refused.headers["retry-after"] ?? "") ?? 0
      #expect(seconds >= 1 && seconds <= 2, "Retry-After: \(refused.headers)")
    }
    #expect(wrong.body == right.body, "nothing tells a right code from a wrong one")
    // The old throttle answered these five ways' guesses at 0, 0.25, 0.75, 1.75 and 3.75 s;
    // nothing waits now (a bound far above a dozen loopback requests, not a speed test).
    #expect(elapsed < .seconds(3), "\(elapsed)")
    await server.stop()
  }

  @Test func anIPv6AddressCountsAsItsSlash64() {
    let key = GuessThrottle.key("2001:db8:1:2:aaaa::1")
    #expect(key == GuessThrottle.key("2001:db8:1:2:ffff:ffff:ffff:ffff"))
    #expect(key != GuessThrottle.key("2001:db8:1:3::1"))
    #expect(GuessThrottle.key("::ffff:192.0.2.7") == "192.0.2.7")
    #expect(GuessThrottle.key("192.0.2.7") == "192.0.2.7")
    #expect(GuessThrottle.key("::1") != GuessThrottle.key("::ffff:127.0.0.1"))
  }
}
