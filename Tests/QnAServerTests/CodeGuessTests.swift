import Foundation
import TestSupport
import Testing

@testable import QnAServer

/// Unknown join codes behind a trusted proxy: each attendee's guesses take their own turns,
/// by the address the proxy forwarded, not the proxy's. (Behind nginx every socket comes
/// from it: counted as one, a deleted session's reconnecting room would queue as one.)
@Suite("qna-server: join-code guesses behind a proxy")
struct CodeGuessTests {
  @Test func eachForwardedAddressTakesItsOwnTurns() async throws {
    let server = try await ServerUnderTest { $0.trustedProxies = ["127.0.0.1"] }
    defer { Task { await server.stop() } }
    func guess(from address: String) async throws -> Duration {
      let started = ContinuousClock.now
      let refused = try await server.http(
        "GET", "/s/ZZZZZZ/socket",
        headers: SessionServerTests.upgrade.merging(["X-Forwarded-For": address]) { $1 })
      #expect(refused.status == 404)
      return ContinuousClock.now - started
    }
    // One address guessing: its turns come 250 ms, 500 ms, 1 s apart.
    var spent = Duration.zero
    for _ in 0..<4 { spent += try await guess(from: "203.0.113.5") }
    #expect(spent >= .milliseconds(1500), "\(spent)")
    // Another attendee behind the same proxy: its first guess is answered at once.
    #expect(try await guess(from: "203.0.113.6") < .milliseconds(250))
  }
}
