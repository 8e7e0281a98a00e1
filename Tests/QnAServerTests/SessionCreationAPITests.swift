import Foundation
import QnAServer
import TestSupport
import Testing

/// `POST /api/sessions` with an `Idempotency-Key`: a retry finds the first try's session.
@Suite("qna-server: creating a session safely twice")
struct SessionCreationAPITests {
  @Test func theSameKeyFindsTheSameSessionAndAnotherTitleIsAConflict() async throws {
    let server = try await ServerUnderTest()
    defer { Task { await server.stop() } }
    func create(_ title: String, key: String?) async throws -> (Int, [String: Any]) {
      let response = try await server.http(
        "POST", "/api/sessions", body: #"{"title":"\#(title)"}"#,
        headers: key.map { ["Idempotency-Key": $0] } ?? [:])
      let json = try? JSONSerialization.jsonObject(with: Data(response.body.utf8))
      return (response.status, json as? [String: Any] ?? [:])
    }
    let (firstStatus, first) = try await create("Keynote", key: "retry-me")
    #expect(firstStatus == 201)
    let (againStatus, again) = try await create("Keynote", key: "retry-me")
    #expect(againStatus == 200, "found, not made")
    #expect(again["code"] as? String == first["code"] as? String)
    #expect(again["token"] as? String == first["token"] as? String, "the reply the first try lost")
    #expect(try await create("Another", key: "retry-me").0 == 409)
    #expect(try await create("Keynote", key: "has space").0 == 400)
    #expect(try await create("Keynote", key: String(repeating: "k", count: 201)).0 == 400)
    // Without a key: a new session every time, as before.
    let (plainStatus, plain) = try await create("Keynote", key: nil)
    #expect(plainStatus == 201 && plain["code"] as? String != first["code"] as? String)
    let list = try await server.http("GET", "/api/sessions")
    #expect(list.body.components(separatedBy: "Keynote").count - 1 == 2, "\(list.body)")
  }
}
