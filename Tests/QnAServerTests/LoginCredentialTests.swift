import Foundation
import GRDB
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStoreSQLite
import TestSupport
import Testing
import WebSocketClient

/// Logins tied to the token that made them: a new admin token (a restart) or a session's new
/// token ends the logins the old one made; `logout-all` ends them all; tokens still admit.
@Suite("qna-server: logins and the tokens that made them", .serialized)
struct LoginCredentialTests {
  static let tokenA = "admin-token-A-0123"
  static let tokenB = "admin-token-B-0123"

  static func bearer(_ token: String) -> [String: String] {
    ["Authorization": "Bearer \(token)"]
  }

  /// Logs in through the form (`/login`, or the session's); the cookie as a browser sends
  /// it back, `name=id`.
  static func logIn(port: Int, token: String, session code: String? = nil) async throws
    -> String
  {
    let path = code.map { "/s/\($0)/login" } ?? "/login"
    let response = try await onOwnThread {
      try httpRequest(
        "POST", port: port, path: path, body: "token=\(token)",
        headers: ["Content-Type": "application/x-www-form-urlencoded"])
    }
    let cookie = try #require(response.headers["set-cookie"], "\(response.status)")
    return String(cookie.prefix { $0 != ";" })
  }

  /// The status of `GET path` with these headers.
  static func status(_ port: Int, _ path: String, _ headers: [String: String]) async throws
    -> Int
  {
    try await onOwnThread { try httpRequest("GET", port: port, path: path, headers: headers) }
      .status
  }

  @Test func aNewAdminTokenEndsTheLoginsTheOldOneMade() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qna.sqlite")
    let first = try await ServerUnderTest {
      $0.database = path
      $0.adminToken = Self.tokenA
    }
    let talk = try await MadeSession.create(first, "Restarted", admin: Self.tokenA)
    let talkAPI = "/s/\(talk.code)/api/questions"
    let admin = try await Self.logIn(port: first.port, token: Self.tokenA)
    let adminInTalk = try await Self.logIn(port: first.port, token: Self.tokenA, session: talk.code)
    let ownInTalk = try await Self.logIn(port: first.port, token: talk.token, session: talk.code)
    #expect(try await Self.status(first.port, "/api/questions", ["Cookie": admin]) == 200)
    #expect(try await Self.status(first.port, talkAPI, ["Cookie": adminInTalk]) == 200)
    await first.stop()

    // The same database, restarted with another admin token.
    let second = try await ServerUnderTest {
      $0.database = path
      $0.adminToken = Self.tokenB
    }
    defer { Task { await second.stop() } }
    let port = second.port
    #expect(try await Self.status(port, "/api/questions", ["Cookie": admin]) == 401)
    let created = try await second.http(
      "POST", "/api/sessions", body: #"{"title":"Late"}"#, headers: ["Cookie": admin])
    #expect(created.status == 401, "the old admin login creates no session")
    #expect(
      try await Self.status(port, talkAPI, ["Cookie": adminInTalk]) == 401,
      "a session's login made with the old admin token")
    #expect(
      try await Self.status(port, talkAPI, ["Cookie": ownInTalk]) == 200,
      "a session's login made with its own token, which did not change")
    #expect(try await Self.status(port, "/api/questions", Self.bearer(Self.tokenA)) == 401)
    let fresh = try await Self.logIn(port: port, token: Self.tokenB)
    #expect(try await Self.status(port, "/api/questions", ["Cookie": fresh]) == 200)
  }

  @Test func aSessionsNewTokenEndsTheOldOneItsLoginsAndItsPresentersSockets() async throws {
    let server = try await ServerUnderTest { $0.adminToken = Self.tokenA }
    defer { Task { await server.stop() } }
    let talk = try await MadeSession.create(server, "Rotated", admin: Self.tokenA)
    let api = "/s/\(talk.code)/api/questions"
    let own = try await Self.logIn(port: server.port, token: talk.token, session: talk.code)
    let byAdmin = try await Self.logIn(port: server.port, token: Self.tokenA, session: talk.code)
    let admin = try await Self.logIn(port: server.port, token: Self.tokenA)
    let presenter = try await PresenterMember.join(server, token: talk.token, path: talk.socket)
    let attendee = try await SessionServerTests.entered(
      server, uuid(1, group: 0x1C), path: talk.socket)

    let rotated = try await server.http(
      "POST", "/api/sessions/\(talk.code.lowercased())/token", headers: Self.bearer(Self.tokenA))
    #expect(rotated.status == 200, "\(rotated.body)")
    let json = try JSONSerialization.jsonObject(with: Data(rotated.body.utf8)) as? [String: Any]
    let token = try #require(json?["token"] as? String)
    #expect(token != talk.token && json?["code"] as? String == talk.code)

    let port = server.port
    #expect(try await Self.status(port, api, talk.bearer) == 401, "the old token")
    #expect(try await Self.status(port, api, ["Cookie": own]) == 401, "a login made with it")
    #expect(
      try await Self.status(port, api, ["Cookie": byAdmin]) == 401,
      "every login of the session ends, whoever made it")
    #expect(try await Self.status(port, api, Self.bearer(token)) == 200, "the new token")
    #expect(
      try await Self.status(port, api, ["Cookie": admin]) == 200,
      "the admin's own login is no session's")
    let again = try await Self.logIn(port: port, token: token, session: talk.code)
    #expect(try await Self.status(port, api, ["Cookie": again]) == 200)

    // The presenter's socket, opened with the old token, is closed; the attendees' stay.
    let closed = try await presenter.member.socket.disconnect()
    #expect("\(closed)".contains("1008"), "\(closed)")
    let attendeeDropped = attendee.socket.events.contains {
      if case .disconnected = $0 { true } else { false }
    }
    #expect(!attendeeDropped, "its attendees stay connected")

    let missing = try await server.http(
      "POST", "/api/sessions/ZZZZZZ/token", headers: Self.bearer(Self.tokenA))
    #expect(missing.status == 404)
    let unauthorised = try await server.http("POST", "/api/sessions/\(talk.code)/token")
    #expect(unauthorised.status == 401)
  }

  @Test func loggingEveryoneOutEndsEveryLoginAndNoToken() async throws {
    let server = try await ServerUnderTest { $0.adminToken = Self.tokenA }
    defer { Task { await server.stop() } }
    let talk = try await MadeSession.create(server, "Everyone out", admin: Self.tokenA)
    let api = "/s/\(talk.code)/api/questions"
    let port = server.port
    let admin = try await Self.logIn(port: port, token: Self.tokenA)
    let own = try await Self.logIn(port: port, token: talk.token, session: talk.code)
    #expect(try await server.http("DELETE", "/api/logins").status == 401, "the admin's only")

    let ended = try await server.http("DELETE", "/api/logins", headers: ["Cookie": admin])
    #expect(ended.status == 200, "\(ended.body)")
    let json = try JSONSerialization.jsonObject(with: Data(ended.body.utf8)) as? [String: Any]
    #expect(json?["ended"] as? Int == 2, "\(ended.body)")
    #expect(try await Self.status(port, "/api/questions", ["Cookie": admin]) == 401)
    #expect(try await Self.status(port, api, ["Cookie": own]) == 401)
    #expect(try await Self.status(port, api, talk.bearer) == 200, "tokens still admit")
    #expect(try await Self.status(port, "/api/questions", Self.bearer(Self.tokenA)) == 200)
  }

  /// `qna-server session rotate-token` and `qna-server logout-all`, beside a running server
  /// on the same SQLite file.
  @Test func theCommandLineRotatesATokenAndLogsEveryoneOut() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("qna.sqlite")
    let server = try await QnAServerProcess([
      "--port", "0", "--db", path, "--admin-token", Self.tokenA,
    ])
    defer { server.stop() }
    let created = try ProgramRun(
      QnAServerProcess.path, ["session", "create", "Rotated", "--db", path])
    let lines = created.output.split(separator: "\n")
    let code = String(try #require(lines.first { $0.hasPrefix("code: ") }?.dropFirst(6)))
    let old = String(try #require(lines.first { $0.hasPrefix("token: ") }?.dropFirst(7)))
    let api = "/s/\(code)/api/questions"
    let port = server.port
    let own = try await Self.logIn(port: port, token: old, session: code)
    let admin = try await Self.logIn(port: port, token: Self.tokenA)
    #expect(try await Self.status(port, api, ["Cookie": own]) == 200)

    let rotation = try ProgramRun(
      QnAServerProcess.path, ["session", "rotate-token", code.lowercased(), "--db", path])
    #expect(rotation.status == 0, "\(rotation.errors)")
    let printed = rotation.output.split(separator: "\n")
    #expect(printed.count == 1, "the new token, once: \(rotation.output)")
    let token = String(try #require(printed.first { $0.hasPrefix("token: ") }?.dropFirst(7)))
    #expect(token != old && token.count == SessionDirectory.tokenLength)
    #expect(rotation.errors.contains("session \(code) has a new presenter token"))
    #expect(rotation.errors.contains("1 login of the session ended"), "\(rotation.errors)")
    #expect(!rotation.errors.contains(old) && !rotation.errors.contains(token))
    #expect(try await Self.status(port, api, Self.bearer(old)) == 401, "the old token")
    #expect(try await Self.status(port, api, ["Cookie": own]) == 401, "a login made with it")
    #expect(try await Self.status(port, api, Self.bearer(token)) == 200, "the new token")

    let again = try await Self.logIn(port: port, token: token, session: code)
    let justOne = try ProgramRun(
      QnAServerProcess.path, ["logout-all", "--session", code.lowercased(), "--db", path])
    #expect(justOne.output == "ended 1 login of session \(code)\n", "\(justOne.output)")
    #expect(try await Self.status(port, api, ["Cookie": again]) == 401)
    #expect(try await Self.status(port, "/api/questions", ["Cookie": admin]) == 200)
    let fresh = try await Self.logIn(port: port, token: token, session: code)
    let all = try ProgramRun(QnAServerProcess.path, ["logout-all", "--db", path])
    #expect(all.status == 0 && all.output == "ended 2 logins\n", "\(all.output) \(all.errors)")
    #expect(try await Self.status(port, "/api/questions", ["Cookie": admin]) == 401)
    #expect(try await Self.status(port, api, ["Cookie": fresh]) == 401)
    #expect(try await Self.status(port, api, Self.bearer(token)) == 200, "tokens still admit")

    for arguments in [
      ["session", "rotate-token", "ABCDEF", "--db", path],
      ["logout-all", "--session", "ABCDEF", "--db", path],
    ] {
      let run = try ProgramRun(QnAServerProcess.path, arguments)
      #expect(run.status == 1 && run.errors.contains("no session ABCDEF"), "\(run.errors)")
    }
  }

  @Test func loginsFromBeforeCredentialsEndWithTheMigration() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("old.sqlite")
    // The schema as the previous release left it, with an admin login.
    let old = try DatabaseQueue(path: path)
    try SQLiteDriver.migrator.migrate(old, upTo: "v8: labels")
    try await old.write { db in
      try db.execute(
        sql: "INSERT INTO presenterLogin (digest, scope, expiresAt) VALUES ('before', -1, ?)",
        arguments: [Date().timeIntervalSince1970 + 3600])
    }
    try old.close()
    let store = try StoreLocation.open(path)
    #expect(try await store.directory.login(digest: "before", now: Date()) == nil)
  }
}
