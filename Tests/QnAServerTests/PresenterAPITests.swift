import Foundation
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import RFC6455
import TestSupport
import Testing
import WebSocketClient

/// The presenter's actions over HTTP (`/api/questions/{id}/ACTION`): every action and state,
/// and what the API refuses.
@Suite("qna-server: the presenter's HTTP API", .serialized)
struct PresenterAPITests {
  @Test func theAPITakesEveryActionAndListsEveryState() async throws {
    let server = try await ServerUnderTest { $0.moderation = true }
    defer { Task { await server.stop() } }
    let alice = try await LifecycleServerTests.entered(server, LifecycleServerTests.alice)
    let id = try await alice.socket.askedQuestion("Q", as: alice.connection)
    func post(_ action: String, _ body: String = "", key: String? = nil) async throws
      -> HTTPResponse
    {
      var headers: [String: String] = [:]
      if let key { headers["Idempotency-Key"] = key }
      return try await server.http(
        "POST", "/api/questions/\(id)/\(action)", body: body, headers: headers)
    }
    // In review: not highlightable (409); approved it is.
    #expect(try await post("highlight").status == 409)
    #expect(try await post("approve").body.contains("\"state\":\"live\""))
    #expect(try await post("highlight").status == 200)
    #expect(try await server.store.highlighted() == id)
    #expect(try await post("unhighlight").status == 200)
    #expect(try await server.store.highlighted() == nil)
    #expect(try await post("answer", "{\"text\": 5}").status == 400)
    let answered = try await post("answer", "{\"text\":\"Yes\",\"private\":false}")
    #expect(answered.status == 200 && answered.body.contains("\"answer\":\"Yes\""))
    // The same key twice acts once: the dismiss after the restore is not done again.
    let key = UUID().uuidString
    #expect(try await post("dismiss", key: key).body.contains("\"state\":\"dismissed\""))
    #expect(try await post("restore").body.contains("\"state\":\"answered\""))
    #expect(try await post("dismiss", key: key).body.contains("\"state\":\"answered\""))
    #expect(
      try await server.http("POST", "/api/questions/\(UUID())/approve").status == 404)
    #expect(try await server.http("POST", "/api/questions/nope/approve").status == 400)
    let list = try await server.http("GET", "/api/questions")
    #expect(list.body.contains("\"state\":\"answered\"") && list.body.contains("\"answered\":true"))
    // Answered: no longer the one to highlight.
    #expect(try await post("highlight").status == 409)
  }

  /// Every malformed request is refused in words and changes nothing: a misspelt key would
  /// have answered without the text, an empty text shown an empty answer, a key that is no
  /// UUID made a retry act twice.
  @Test func theAPIRefusesAnswersAndKeysItCannotTakeAsMeant() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    let alice = try await LifecycleServerTests.entered(server, LifecycleServerTests.alice)
    let id = try await alice.socket.askedQuestion("Q", as: alice.connection)
    func post(_ body: String, headers: [String: String] = [:]) async throws -> HTTPResponse {
      try await server.http("POST", "/api/questions/\(id)/answer", body: body, headers: headers)
    }
    let refusals: [(String, [String: String], String)] = [
      ("{\"txt\":\"hi\"}", [:], "no other keys"),
      ("{\"text\":\"\"}", [:], "empty"),
      ("{\"text\":\"  \"}", [:], "empty"),
      ("[1]", [:], "must be"),
      ("{\"text\":\"ok\"}", ["Idempotency-Key": "retry-1"], "must be a UUID"),
      // 10,000 characters, but 80 KB: more than any client reads beside a question.
      ("{\"text\":\"\(String(repeating: "🇫🇷", count: 10_000))\"}", [:], "too long"),
    ]
    for (body, headers, words) in refusals {
      let response = try await post(body, headers: headers)
      #expect(response.status == 400, "\(body.prefix(40))")
      #expect(response.body.contains(words), "\(response.body)")
    }
    #expect(try await server.store.question(id: id)?.answered == false)
    #expect(
      try await server.http("GET", "/api/questions?sort=bogus").status == 400,
      "an unknown sort is no silent newest-first")
    #expect(try await server.http("GET", "/api/questions?sort=votes").status == 200)
  }

  /// With moderation, a question dismissed before anyone approved it goes back to review
  /// when restored, not straight to the room.
  @Test func aQuestionDismissedInReviewIsRestoredToReview() async throws {
    let server = try await ServerUnderTest { $0.moderation = true }
    defer { Task { await server.stop() } }
    let alice = try await LifecycleServerTests.entered(server, LifecycleServerTests.alice)
    let id = try await alice.socket.askedQuestion("Q", as: alice.connection)
    for action in ["dismiss", "restore"] {
      #expect(try await server.http("POST", "/api/questions/\(id)/\(action)").status == 200)
    }
    #expect(try await server.store.question(id: id)?.publicState == .review)
    for action in ["approve", "dismiss", "restore"] {
      #expect(try await server.http("POST", "/api/questions/\(id)/\(action)").status == 200)
    }
    #expect(try await server.store.question(id: id)?.publicState == .live)
  }
}
