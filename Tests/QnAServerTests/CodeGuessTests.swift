import Foundation
import QnAServer
import TestSupport
import Testing

/// Unknown join codes behind a trusted proxy: each attendee's guesses count against the
/// address the proxy forwarded, not the proxy's. (Behind nginx every socket comes from it:
/// counted as one, a deleted session's reconnecting room would use up one budget.)
@Suite("qna-server: join-code guesses behind a proxy")
struct CodeGuessTests {
  @Test func eachForwardedAddressHasItsOwnBudget() async throws {
    let server = try await ServerUnderTest { $0.trustedProxies = ["127.0.0.1"] }
    defer { Task { await server.stop() } }
    func guess(from address: String) async throws -> Int {
      try await server.http(
        "GET", "/s/ZZZZZZ/socket",
        headers: SessionServerTests.upgrade.merging(["X-Forwarded-For": address]) { $1 }
      ).status
    }
    // One address guessing: its burst (and one more for each interval the guesses took),
    // then over the rate.
    let started = ContinuousClock.now
    var answered = 0
    while try await guess(from: "203.0.113.5") == 404, answered < 3 * GuessThrottle.burst {
      answered += 1
    }
    let allowed =
      GuessThrottle.burst + Int((ContinuousClock.now - started) / GuessThrottle.interval)
    #expect(answered >= GuessThrottle.burst && answered <= allowed, "\(answered)")
    // Another attendee behind the same proxy: its guesses are its own.
    #expect(try await guess(from: "203.0.113.6") == 404)
  }
}
