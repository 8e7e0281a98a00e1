import Foundation
import QnAServer
import QnAStore
import TestSupport
import Testing

/// Rotation on two instances of one PostgreSQL database: the old admin and session logins
/// (and the old session token) are refused on every instance; the new ones work on every one.
@Suite("qna-server: rotating tokens across two instances on one PostgreSQL", .serialized)
struct LoginRotationAcrossInstancesTests {
  static let tokenA = LoginCredentialTests.tokenA
  static let tokenB = LoginCredentialTests.tokenB

  static func pair(_ url: String, admin: String) async throws -> [ServerUnderTest] {
    let configure: (inout ServerConfiguration) -> Void = {
      $0.database = url
      $0.adminToken = admin
    }
    return [try await ServerUnderTest(configure), try await ServerUnderTest(configure)]
  }

  static func status(_ server: ServerUnderTest, _ path: String, _ headers: [String: String])
    async throws -> Int
  {
    try await LoginCredentialTests.status(server.port, path, headers)
  }

  @Test func oldLoginsAreRefusedOnEveryInstanceAfterEitherTokenChanges() async throws {
    let url = try PostgresProcess.shared().database()
    let before = try await Self.pair(url, admin: Self.tokenA)
    defer {
      Task {
        for server in before { await server.stop() }
      }
    }
    let (one, two) = (before[0], before[1])
    let talk = try await MadeSession.create(one, "Across", admin: Self.tokenA)
    let api = "/s/\(talk.code)/api/questions"
    let admin = try await LoginCredentialTests.logIn(port: one.port, token: Self.tokenA)
    let own = try await LoginCredentialTests.logIn(
      port: two.port, token: talk.token, session: talk.code)
    for server in before {
      #expect(try await Self.status(server, "/api/questions", ["Cookie": admin]) == 200)
      #expect(try await Self.status(server, api, ["Cookie": own]) == 200)
    }
    let presenter = try await PresenterMember.join(two, token: talk.token, path: talk.socket)

    // The session's token, changed through instance one: refused on both at once.
    let rotated = try await one.http(
      "POST", "/api/sessions/\(talk.code)/token",
      headers: LoginCredentialTests.bearer(Self.tokenA))
    #expect(rotated.status == 200, "\(rotated.body)")
    let json = try JSONSerialization.jsonObject(with: Data(rotated.body.utf8)) as? [String: Any]
    let token = try #require(json?["token"] as? String)
    for server in before {
      #expect(try await Self.status(server, api, talk.bearer) == 401, "the old token")
      #expect(try await Self.status(server, api, ["Cookie": own]) == 401, "a login made with it")
      #expect(
        try await Self.status(server, api, LoginCredentialTests.bearer(token)) == 200,
        "the new token")
    }
    // Instance two hears of it from PostgreSQL and closes the presenter's socket there.
    let closed = try await presenter.member.socket.disconnect()
    #expect("\(closed)".contains("1008"), "\(closed)")
    let fresh = try await LoginCredentialTests.logIn(
      port: two.port, token: token, session: talk.code)
    for server in before {
      #expect(try await Self.status(server, api, ["Cookie": fresh]) == 200)
    }
    await one.stop()
    await two.stop()

    // The admin token, changed as a deployment does: every instance restarted with another.
    let after = try await Self.pair(url, admin: Self.tokenB)
    defer {
      Task {
        for server in after { await server.stop() }
      }
    }
    for server in after {
      #expect(try await Self.status(server, "/api/questions", ["Cookie": admin]) == 401)
      let created = try await server.http(
        "POST", "/api/sessions", body: #"{"title":"Late"}"#, headers: ["Cookie": admin])
      #expect(created.status == 401, "the old admin login creates no session")
      #expect(
        try await Self.status(server, api, ["Cookie": fresh]) == 200,
        "a session's login made with its own token outlives the admin token")
    }
    let newAdmin = try await LoginCredentialTests.logIn(port: after[1].port, token: Self.tokenB)
    for server in after {
      #expect(try await Self.status(server, "/api/questions", ["Cookie": newAdmin]) == 200)
    }
  }
}
