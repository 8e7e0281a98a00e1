import Foundation
import HTTPTypes
import Hummingbird
import Logging
import QnAServer
import QnAStore
import Testing

/// The application driven in process through its router (`InProcessRouter`): routes, the
/// presenter's credentials, logins and sessions, with no port bound. (The request guards sit
/// in the channel, below the router: their tests are on NIO's testing channel, and the
/// process tests keep what only a socket shows.)
@Suite("qna-server in process: routes and credentials")
struct InProcessAppTests {
  static let token = "a-long-admin-token"

  static func app(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) throws
    -> some ApplicationProtocol
  {
    var configuration = ServerConfiguration()
    configuration.database = ":memory:"
    configuration.adminToken = token
    adjust(&configuration)
    var logger = Logger(label: "qna-in-process")
    logger.logLevel = .critical
    return try QnAServerApp(configuration: configuration, logger: logger).buildApplication()
  }

  static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

  static func form(_ token: String) -> (HTTPFields, ByteBuffer) {
    ([.contentType: "application/x-www-form-urlencoded"], ByteBuffer(string: "token=\(token)"))
  }

  /// The `name=value` of a response's `Set-Cookie`.
  static func cookie(_ response: InProcessResponse) -> String? {
    response.headers[.setCookie]?.split(separator: ";").first.map(String.init)
  }

  @Test func probesAreOpenAndThePresentersRoutesNeedTheToken() async throws {
    try await InProcessRouter(app: Self.app()).run { client in
      #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
      #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
      let refused = try await client.execute(uri: "/api/questions", method: .get)
      #expect(refused.status == .unauthorized)
      #expect(refused.headers[.wwwAuthenticate] == "Bearer realm=\"qna presenter\"")
      let wrong = try await client.execute(
        uri: "/api/questions", method: .get, headers: Self.bearer("not-the-admin-token"))
      #expect(wrong.status == .unauthorized)
      let right = try await client.execute(
        uri: "/api/questions", method: .get, headers: Self.bearer(Self.token))
      #expect(right.status == .ok && String(buffer: right.body) == "[]")
      let browser = try await client.execute(
        uri: "/", method: .get, headers: [.accept: "text/html"])
      #expect(browser.headers[.location] == "/login", "a browser goes to the login form")
      let metrics = try await client.execute(
        uri: "/metrics", method: .get, headers: Self.bearer(Self.token))
      #expect(String(buffer: metrics.body).contains("qna_websockets_open"))
    }
  }

  @Test func aLoginCookieAdmitsUntilLogoutAndNeverHoldsTheToken() async throws {
    try await InProcessRouter(app: Self.app()).run { client in
      let (headers, body) = Self.form("wrong-token-entirely")
      let failed = try await client.execute(
        uri: "/login", method: .post, headers: headers, body: body)
      #expect(failed.status == .unauthorized && Self.cookie(failed) == nil)
      let (good, goodBody) = Self.form(Self.token)
      let login = try await client.execute(
        uri: "/login", method: .post, headers: good, body: goodBody)
      let cookie = try #require(Self.cookie(login))
      #expect(cookie.hasPrefix("qna_session=") && !cookie.contains(Self.token))
      let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
      #expect(page.status == .ok)
      // A proxy's own Basic login (nginx auth_basic) is no presenter credential: the
      // cookie still decides.
      let behindBasic = try await client.execute(
        uri: "/", method: .get, headers: [.cookie: cookie, .authorization: "Basic dTpw"])
      #expect(behindBasic.status == .ok)
      _ = try await client.execute(uri: "/logout", method: .post, headers: [.cookie: cookie])
      let after = try await client.execute(
        uri: "/api/questions", method: .get, headers: [.cookie: cookie])
      #expect(after.status == .unauthorized, "a logged-out cookie admits no more")
    }
  }

  @Test func aSessionsTokenAdmitsToItsOwnRoutesOnlyAndTheAdminsToAll() async throws {
    try await InProcessRouter(app: Self.app()).run { client in
      func create(_ title: String) async throws -> (code: String, token: String) {
        let response = try await client.execute(
          uri: "/api/sessions", method: .post,
          headers: Self.bearer(Self.token).merging([.contentType: "application/json"]),
          body: ByteBuffer(string: "{\"title\": \"\(title)\"}"))
        #expect(response.status == .created)
        let json = try JSONDecoder().decode(
          [String: JSONValue].self, from: Data(response.body.readableBytesView))
        return (json["code"]?.string ?? "", json["token"]?.string ?? "")
      }
      let keynote = try await create("Keynote")
      let panel = try await create("Panel")
      func status(_ code: String, _ token: String) async throws -> HTTPResponse.Status {
        try await client.execute(
          uri: "/s/\(code)/api/questions", method: .get, headers: Self.bearer(token)
        ).status
      }
      #expect(try await status(keynote.code, keynote.token) == .ok)
      #expect(try await status(keynote.code, Self.token) == .ok)
      #expect(try await status(keynote.code, panel.token) == .unauthorized)
      #expect(try await status("NOSUCH", Self.token) == .notFound)
      // A session's login is scoped to its path and its session.
      let (headers, body) = Self.form(panel.token)
      let login = try await client.execute(
        uri: "/s/\(panel.code)/login", method: .post, headers: headers, body: body)
      let cookie = try #require(Self.cookie(login))
      #expect(cookie.hasPrefix("qna_session_\(panel.code)="))
      let own = try await client.execute(
        uri: "/s/\(panel.code)/api/questions", method: .get, headers: [.cookie: cookie])
      #expect(own.status == .ok)
      let other = try await client.execute(
        uri: "/s/\(keynote.code)/api/questions", method: .get,
        headers: [.cookie: cookie.replacingOccurrences(of: panel.code, with: keynote.code)])
      #expect(other.status == .unauthorized, "a login for one session admits to no other")
    }
  }

  @Test func withoutATokenALoopbackServersPresenterRoutesAreOpen() async throws {
    try await InProcessRouter(app: Self.app { $0.adminToken = nil }).run { client in
      let open = try await client.execute(uri: "/api/questions", method: .get)
      let login = try await client.execute(uri: "/login", method: .get)
      #expect(open.status == .ok)
      #expect(login.status == .notFound, "no login form without a token")
    }
  }
}

/// Just enough JSON to read the API's replies.
enum JSONValue: Decodable {
  case string(String)
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self = (try? container.decode(String.self)).map(JSONValue.string) ?? .other
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }
}

extension HTTPFields {
  func merging(_ other: HTTPFields) -> HTTPFields {
    var merged = self
    merged.append(contentsOf: other)
    return merged
  }
}
