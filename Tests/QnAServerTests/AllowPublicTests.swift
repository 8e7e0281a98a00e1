import Foundation
import QnAServer
import TestSupport
import Testing

/// `--allow-public` without an admin token opens the default room's presenter routes to
/// whoever reaches the server, as the operator accepted; the session administration (every
/// join code and token, deletions, logins) stays with a client on the server's host.
@Suite("qna-server: what --allow-public opens")
struct AllowPublicTests {
  @Test func aRemoteClientMayNotAdministerSessionsWithoutAToken() async throws {
    // A trusted proxy stands in for the network: its forwarded address is a remote client.
    let server = try await ServerUnderTest {
      $0.allowPublic = true
      $0.trustedProxies = ["127.0.0.1"]
    }
    defer { Task { await server.stop() } }
    let remote = ["X-Forwarded-For": "203.0.113.9", "Content-Type": "application/json"]
    for (method, path, body) in [
      ("GET", "/api/sessions", ""), ("POST", "/api/sessions", "{\"title\": \"Mine\"}"),
      ("DELETE", "/api/logins", ""), ("POST", "/api/sessions/ABCDEF/close", ""),
      ("DELETE", "/api/sessions/ABCDEF", ""), ("POST", "/api/sessions/ABCDEF/token", ""),
    ] {
      let refused = try await server.http(method, path, body: body, headers: remote)
      #expect(refused.status == 403, "\(method) \(path): \(refused.status)")
    }
    // What --allow-public says it opens: the default room's presenter routes.
    #expect(try await server.http("GET", "/api/questions", headers: remote).status == 200)
    // The operator on the host.
    let created = try await server.http(
      "POST", "/api/sessions", body: "{\"title\": \"Keynote\"}",
      headers: ["Content-Type": "application/json"])
    #expect(created.status == 201)
    #expect(try await server.http("GET", "/api/sessions").status == 200)
  }
}
