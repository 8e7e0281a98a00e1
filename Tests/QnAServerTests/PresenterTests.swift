import Foundation
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import Testing

@Suite("qna-server: the presenter side", .serialized)
struct PresenterTests {
  /// One attendee asks `content`; returns the attendee and the stored question's id.
  func ask(_ content: String, on server: ServerUnderTest) async throws -> (Attendee, UUID) {
    let attendee = try Attendee(server.socketURL)
    try await attendee.ask(content, as: try await attendee.handshake())
    let response = try await attendee.response()
    return (attendee, try #require(response.id))
  }

  @Test func thePageListsQuestionsEscapedWithAnAnswerButton() async throws {
    let server = try await ServerUnderTest()
    let (attendee, id) = try await ask("<script>alert('x')</script> & \"co\"", on: server)
    let page = try await server.http("GET", "/")
    #expect(page.status == 200)
    #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
    #expect(!page.body.contains("<script>alert"))
    // Live without reloading, and the script only ever sets text, never markup.
    #expect(!page.body.contains("http-equiv=\"refresh\""))
    let script = try await server.http("GET", "/assets/presenter.js")
    #expect(!script.body.contains("innerHTML") && script.body.contains("textContent"))
    #expect(
      page.body.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;"))
    #expect(page.body.contains("action=\"/\(id.uuidString)/answer\""))
    await attendee.close()
    await server.stop()
  }

  @Test func answeringSendsQuestionAnswerToTheAskerThenRedirects() async throws {
    let server = try await ServerUnderTest()
    let (attendee, id) = try await ask("Why?", on: server)
    let answer = try await server.http("POST", "/\(id.uuidString)/answer")
    #expect(answer.status == 303 && answer.headers["location"] == "/")
    let message = try await attendee.waitForMessage("answer", seconds: 2) {
      if case .questionAnswer = $0 { true } else { false }
    }
    #expect(message == .questionAnswer(QuestionAnswer(questionId: id)))
    let page = try await server.http("GET", "/")
    #expect(!page.body.contains("/\(id.uuidString)/answer"), "no button once answered")
    await attendee.close()
    await server.stop()
  }

  @Test func malformedAndUnknownIDs() async throws {
    let server = try await ServerUnderTest()
    #expect(try await server.http("POST", "/not-a-uuid/answer").status == 400)
    #expect(try await server.http("POST", "/\(UUID().uuidString)/answer").status == 404)
    #expect(try await server.http("POST", "/api/questions/nope/answer").status == 400)
    #expect(
      try await server.http("POST", "/api/questions/\(UUID().uuidString)/answer").status == 404)
    await server.stop()
  }

  @Test func theAPIListsAndAnswersInJSON() async throws {
    let server = try await ServerUnderTest()
    let (attendee, id) = try await ask("API?", on: server)
    let answered = try await server.http("POST", "/api/questions/\(id.uuidString)/answer")
    #expect(answered.status == 200)
    let object = try JSONSerialization.jsonObject(with: Data(answered.body.utf8)) as? [String: Any]
    #expect(object?["answered"] as? Bool == true)
    #expect(object?["content"] as? String == "API?")
    let list = try await server.http("GET", "/api/questions")
    let rows = try JSONSerialization.jsonObject(with: Data(list.body.utf8)) as? [[String: Any]]
    #expect(rows?.count == 1 && rows?.first?["id"] as? String == id.uuidString)
    await attendee.close()
    await server.stop()
  }

  @Test func theAdminTokenGuardsPresenterRoutesButNotTheSocket() async throws {
    let token = "s3cret-token"
    let server = try await ServerUnderTest { $0.adminToken = token }
    let (attendee, id) = try await ask("guarded?", on: server)
    #expect(try await server.http("GET", "/api/questions").status == 401)
    #expect(try await server.http("POST", "/\(id.uuidString)/answer").status == 401)
    #expect(
      try await server.http("GET", "/", headers: ["Accept": "text/html"]).headers["location"]
        == "/login")
    #expect(
      try await server.http("GET", "/api/questions", headers: ["Authorization": "Bearer wrong"])
        .status == 401)
    let bearer = ["Authorization": "Bearer \(token)"]
    #expect(try await server.http("GET", "/api/questions", headers: bearer).status == 200)

    let refused = try await server.http("POST", "/login", body: "token=nope")
    #expect(refused.status == 401 && refused.headers["set-cookie"] == nil)
    let login = try await server.http("POST", "/login", body: "token=\(token)")
    #expect(login.status == 303)
    let cookie = try #require(login.headers["set-cookie"])
    #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
    let session = ["Cookie": String(cookie.prefix { $0 != ";" })]
    #expect(try await server.http("GET", "/", headers: session).status == 200)
    #expect(
      try await server.http("POST", "/\(id.uuidString)/answer", headers: session).status == 303)
    await attendee.close()
    await server.stop()
  }

  @Test func withoutATokenOnlyLoopbackHostNamesAreServed() async throws {
    let server = try await ServerUnderTest()
    #expect(try await server.http("GET", "/api/questions").status == 200)
    let rebound = try await server.http(
      "GET", "/api/questions", headers: ["Host": "evil.example:80"])
    #expect(rebound.status == 421)
    #expect(try await server.http("GET", "/", headers: ["Host": "localhost:8080"]).status == 200)
    await server.stop()
  }

  @Test func aPublicAddressNeedsATokenOrAnExplicitAllowance() throws {
    var configuration = ServerConfiguration()
    configuration.host = "0.0.0.0"
    configuration.database = ":memory:"
    #expect(throws: ServerStartError.self) { try QnAServerApp(configuration: configuration) }
    configuration.allowPublic = true
    _ = try QnAServerApp(configuration: configuration)
    configuration.allowPublic = false
    configuration.adminToken = "short"
    #expect(throws: ServerStartError.self) { try QnAServerApp(configuration: configuration) }
    configuration.adminToken = "long-enough-token"
    _ = try QnAServerApp(configuration: configuration)
  }
}
