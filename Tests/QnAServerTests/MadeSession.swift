import Foundation
import TestSupport
import Testing

/// A session made through `POST /api/sessions`, as an organiser's tool would.
struct MadeSession {
  let code: String
  let token: String

  static func create(
    _ server: ServerUnderTest, _ title: String, admin: String? = nil
  ) async throws -> MadeSession {
    let response = try await server.http(
      "POST", "/api/sessions", body: #"{"title":"\#(title)"}"#,
      headers: admin.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    #expect(response.status == 201, "\(response.body)")
    let json = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
    let code = try #require(json?["code"] as? String)
    let token = try #require(json?["token"] as? String)
    return MadeSession(code: code, token: token)
  }

  var socket: String { "/s/\(code)/socket" }
  var bearer: [String: String] { ["Authorization": "Bearer \(token)"] }
}
