import Foundation
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import Synchronization
import TestSupport
import Testing

/// The hostile-input campaign's HTTP half: forged Host and Origin headers, cross-site posts,
/// session cookies, and ids no presenter types.
@Suite("qna-server: no way in", .serialized)
struct NoWayInTests {
  static let upgrade =
    "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    + "Sec-WebSocket-Version: 13\r\n"

  @Test(
    "Only loopback names pass the Host check",
    arguments: [
      ("127.0.0.1", 200), ("127.0.0.1:8080", 200), ("127.9.8.7", 200), ("localhost", 200),
      ("LOCALHOST", 200), ("localhost.", 200), ("LocalHost.:99", 200), ("[::1]", 200),
      ("[::1]:8080", 200), ("127.evil.example", 421), ("127.0.0.1.nip.io", 421),
      ("localhost.evil.example", 421), ("evil.example", 421), ("127.0.0.01", 421),
      ("0x7f.0.0.1", 421), ("127.0.0.1:99999", 421), ("127.0.0.1:", 421), ("[::2]", 421),
      ("[::1", 421), ("localhost:80:80", 421), ("", 400),
    ])
  func hostHeaders(host: String, status: Int) async throws {
    let server = try await ServerUnderTest()
    let response = try await server.raw(
      "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
    #expect(response.status == status, "Host: \(host)")
    await server.stop()
  }

  @Test func aMissingOrDoubledHostOrAnAbsoluteTargetForAnotherHostIsRefused() async throws {
    let server = try await ServerUnderTest()
    #expect(try await server.raw("GET / HTTP/1.1\r\n\r\n").status == 400)
    #expect(try await server.raw("GET / HTTP/1.0\r\n\r\n").status == 400)
    let doubled = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"
    #expect(try await server.raw(doubled).status == 400)
    let absolute = "GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    #expect(try await server.raw(absolute).status == 400)
    let own =
      "GET http://127.0.0.1:\(server.port)/ HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
      + "Connection: close\r\n\r\n"
    #expect(try await server.raw(own).status == 200, "absolute-form for this host is fine")
    await server.stop()
  }

  @Test func everyRequestOnAConnectionIsJudgedInTurnPipelinedOrNot() async throws {
    let server = try await ServerUnderTest()
    let host = "Host: 127.0.0.1:\(server.port)\r\n"
    // Pipelined: the answer to the first comes whole, then the refusal, then the close.
    let pipelined = try await server.raw(
      "GET /api/questions HTTP/1.1\r\n\(host)\r\nGET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")
    #expect(pipelined.status == 200)
    #expect(pipelined.body.contains("HTTP/1.1 421"), "\(pipelined.body)")
    // An Upgrade header alone does not open a way around the gate: whatever answers the first
    // request (the upgrade fails), the second, for another host, is never served.
    let upgradeLike = try? await server.raw(
      "GET / HTTP/1.1\r\n\(host)Upgrade: WebSocket\r\n\r\n"
        + "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    #expect(upgradeLike.map { !$0.body.contains("HTTP/1.1 200") } ?? true)
    // HEAD gets no body with its refusal.
    let head = try await server.raw("HEAD / HTTP/1.1\r\nHost: evil.example\r\n\r\n")
    #expect(head.status == 421 && head.body.isEmpty)
    await server.stop()
  }

  @Test func crossSitePostsAndSocketsAreRefusedPlainToolsAreNot() async throws {
    let server = try await ServerUnderTest { $0.allowedOrigins = ["https://slides.example"] }
    let attendee = try Attendee(server.socketURL)
    try await attendee.ask("answer me", as: try await attendee.handshake(), token: UUID())
    let id = try #require(try await attendee.response().id)
    let host = "127.0.0.1:\(server.port)"
    let form =
      "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n"
      + "Connection: close\r\n"
    func post(_ extra: String) async throws -> Int {
      try await server.raw("POST /\(id)/answer HTTP/1.1\r\nHost: \(host)\r\n\(form)\(extra)\r\n")
        .status
    }
    #expect(try await post("Origin: http://evil.example\r\n") == 403)
    #expect(try await post("Origin: null\r\n") == 403)
    #expect(try await post("Sec-Fetch-Site: cross-site\r\n") == 403)
    #expect(try await post("Origin: http://\(host)\r\nSec-Fetch-Site: same-origin\r\n") == 303)
    #expect(try await post("") == 303, "curl and scripts send neither")
    let json = try await server.http(
      "POST", "/api/questions/\(id)/answer", headers: ["Content-Type": "text/plain"])
    #expect(json.status == 200, "whatever the content type")

    let socket = "GET /socket HTTP/1.1\r\nHost: \(host)\r\n\(Self.upgrade)"
    let evil = try await server.raw(socket + "Origin: http://evil.example\r\n\r\n")
    #expect(evil.status == 403)
    let slides = try await server.raw(
      socket + "Origin: https://slides.example\r\n\r\n", headOnly: true)
    #expect(slides.status == 101, "an allowed origin")
    let noOrigin = try await server.raw(socket + "\r\n", headOnly: true)
    #expect(noOrigin.status == 101, "qna sends no Origin")
    await attendee.close()
    await server.stop()
  }

  @Test func everyPageAndErrorForbidsFramingAndInlineScript() async throws {
    let server = try await ServerUnderTest { $0.adminToken = "a-long-enough-token" }
    for path in ["/login", "/missing", "/", "/assets/presenter.js"] {
      let response = try await server.http("GET", path)
      #expect(response.headers["x-frame-options"] == "DENY", "\(path)")
      let policy = response.headers["content-security-policy"] ?? ""
      #expect(policy.contains("frame-ancestors 'none'"), "\(path)")
      #expect(policy.contains("default-src 'self'") && policy.contains("script-src 'self'"))
      #expect(!policy.contains("unsafe-inline"), "\(path)")
    }
    let refused = try await server.raw("GET / HTTP/1.1\r\n\r\n")
    #expect(refused.headers["x-frame-options"] == "DENY", "the gate's own refusals too")
    await server.stop()
  }

  @Test func thePresenterPageHasNoInlineScriptOrStyle() async throws {
    let server = try await ServerUnderTest()
    let page = try await server.http("GET", "/")
    #expect(page.status == 200)
    #expect(page.body.contains("<script type=\"module\" src=\"/assets/presenter.js\"></script>"))
    #expect(!page.body.contains("<script>") && !page.body.contains("<style>"))
    let script = try await server.http("GET", "/assets/presenter.js")
    #expect(
      script.status == 200 && script.headers["content-type"]?.hasPrefix("text/javascript") == true)
    let style = try await server.http("GET", "/assets/presenter.css")
    #expect(style.status == 200 && style.headers["content-type"]?.hasPrefix("text/css") == true)
    await server.stop()
  }

  @Test func theLoginCookieIsASessionThatExpiresAndLogsOut() async throws {
    // Logins expire by the wall clock, which every instance on the database shares.
    let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var environment = ServerEnvironment()
    environment.now = { clock.withLock { $0 } }
    let token = "a-long-enough-token"
    let server = try await ServerUnderTest(environment: environment) { $0.adminToken = token }
    let login = try await server.http(
      "POST", "/login", body: "token=\(token)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    let setCookie = try #require(login.headers["set-cookie"])
    #expect(!setCookie.contains(token), "the cookie never holds the token")
    for attribute in ["HttpOnly", "SameSite=Strict", "Max-Age=43200", "Path=/"] {
      #expect(setCookie.contains(attribute), "\(attribute) in \(setCookie)")
    }
    #expect(!setCookie.contains("Secure"), "plain HTTP on loopback")
    let pair = String(setCookie.prefix { $0 != ";" })
    func status(cookie: String) async throws -> Int {
      try await server.http("GET", "/api/questions", headers: ["Cookie": cookie]).status
    }
    #expect(try await status(cookie: pair) == 200)
    #expect(try await status(cookie: "qna_session=") == 401, "empty")
    #expect(try await status(cookie: String(pair.dropLast())) == 401, "truncated")
    #expect(try await status(cookie: "\(pair); qna_session=forged") == 401, "duplicated")
    #expect(try await status(cookie: "qna_session=\(token)") == 401, "the token is no cookie")

    clock.withLock { $0 += 12 * 3600 + 1 }
    #expect(try await status(cookie: pair) == 401, "expired")
    let again = try await server.http(
      "POST", "/login", body: "token=\(token)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    let fresh = String(try #require(again.headers["set-cookie"]).prefix { $0 != ";" })
    #expect(try await status(cookie: fresh) == 200)
    let logout = try await server.http("POST", "/logout", headers: ["Cookie": fresh])
    #expect(logout.status == 303 && logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
    #expect(try await status(cookie: fresh) == 401, "logged out")
    await server.stop()
  }

  @Test func behindATrustedTLSProxyTheCookieIsSecure() async throws {
    let token = "a-long-enough-token"
    let server = try await ServerUnderTest {
      $0.adminToken = token
      $0.trustedProxies = ["127.0.0.1"]
    }
    let login = try await server.http(
      "POST", "/login", body: "token=\(token)",
      headers: [
        "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-Proto": "https",
      ])
    #expect(login.headers["set-cookie"]?.contains("Secure") == true)
    await server.stop()
  }

  @Test func wrongTokensPastTheRateAreRefusedAtOnceAndTheRightOneWithThem() async throws {
    let token = "a-long-enough-token"
    let server = try await ServerUnderTest { $0.adminToken = token }
    let login = try await server.http(
      "POST", "/login", body: "token=\(token)",
      headers: ["Content-Type": "application/x-www-form-urlencoded"])
    let cookie = String(try #require(login.headers["set-cookie"]).prefix { $0 != ";" })
    // Twelve wrong guesses at once: the burst is judged (401), the rest refused unjudged.
    let guesses = (0..<(GuessThrottle.burst + 2)).map { _ in
      Task {
        try await server.http(
          "GET", "/api/questions", headers: ["Authorization": "Bearer wrong-but-long-enough"]
        ).status
      }
    }
    let started = ContinuousClock.now
    var statuses: [Int] = []
    for guess in guesses { statuses.append(try await guess.value) }
    // (One more judged for each interval the guesses took: a bound, not a speed test.)
    let allowed =
      GuessThrottle.burst + Int((ContinuousClock.now - started) / GuessThrottle.interval)
    let judged = statuses.filter { $0 == 401 }.count
    #expect(judged >= GuessThrottle.burst && judged <= allowed, "\(statuses)")
    #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 }, "\(statuses)")
    // Over the rate the right token gets what a wrong one gets: it cannot be told apart.
    let right = try await server.http(
      "GET", "/api/questions", headers: ["Authorization": "Bearer \(token)"])
    #expect(right.status == 429)
    #expect(right.headers["retry-after"] != nil)
    // A login cookie is no guess: the presenter already logged in is not locked out.
    #expect(
      try await server.http("GET", "/api/questions", headers: ["Cookie": cookie]).status == 200)
    await server.stop()
  }

  @Test func everyControlRouteNeedsTheTokenWhenOneIsSet() async throws {
    // Regression: the controls sit behind the same middleware as the presenter routes.
    let server = try await ServerUnderTest {
      $0.adminToken = "a-long-enough-token"
      $0.mock = MockConfiguration()
    }
    for (method, path) in [
      ("POST", "/control/drop"), ("POST", "/control/close"), ("POST", "/control/stall"),
      ("POST", "/control/send"), ("GET", "/control/connections"),
    ] {
      #expect(try await server.http(method, path).status == 401, "\(method) \(path)")
    }
    await server.stop()
  }

  @Test(
    "Answer ids a presenter never types",
    arguments: [("lower", 200), ("braced", 400), ("long", 400), ("unknown", 404)])
  func answerIDs(kind: String, status: Int) async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    try await attendee.ask("which id?", as: try await attendee.handshake(), token: UUID())
    let id = try #require(try await attendee.response().id).uuidString
    let path =
      switch kind {
      case "lower": id.lowercased()
      case "braced": "{\(id)}"
      case "long": String(repeating: "A", count: 10_000)
      default: UUID().uuidString
      }
    #expect(try await server.http("POST", "/api/questions/\(path)/answer").status == status)
    await attendee.close()
    await server.stop()
  }

  @Test func questionsAreListedNewestFirstAPageAtATime() async throws {
    // The server's default settings; the 25 questions go straight into its store (paging is
    // what is tested, and asking 25 at once is past the default rate limit's burst).
    let server = try await ServerUnderTest()
    let start = Date()
    try await server.store.seed(
      (0..<25).map { index in
        StoredQuestion(
          id: UUID(), content: "q\(index)", askedFrom: UUID(),
          createdAt: start.addingTimeInterval(Double(index)))
      })
    func contents(_ query: String) async throws -> [String] {
      let body = try await server.http("GET", "/api/questions\(query)").body
      let items = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]]
      return (items ?? []).compactMap { $0["content"] as? String }
    }
    let first = try await contents("?limit=10")
    #expect(first == (15..<25).reversed().map { "q\($0)" })
    let list =
      try JSONSerialization.jsonObject(
        with: Data(try await server.http("GET", "/api/questions?limit=10").body.utf8))
      as? [[String: Any]]
    let last = try #require(list?.last?["id"] as? String)
    #expect(try await contents("?limit=10&before=\(last)") == (5..<15).reversed().map { "q\($0)" })
    #expect(try await contents("").count == 25, "a thousand by default")
    #expect(try await server.http("GET", "/api/questions?limit=0").status == 400)
    #expect(try await server.http("GET", "/api/questions?limit=1001").status == 400)
    #expect(try await server.http("GET", "/api/questions?before=x").status == 400)
    await server.stop()
  }

  @Test func theLoopbackParserDecidesTheBindAddressToo() {
    for host in ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST."] {
      #expect(LoopbackHost.isLoopback(bindAddress: host), "\(host)")
    }
    for host in ["0.0.0.0", "127.evil.example", "::", "10.0.0.1", "localhost.evil.example"] {
      #expect(!LoopbackHost.isLoopback(bindAddress: host), "\(host)")
    }
  }
}
