import Foundation
import QnA
import TestSupport
import Testing

/// `qna-server` behind Debian's nginx, configured by the example in docs/deploy (only its
/// ports changed): what an operator copies has to work as it is.
@Suite("qna-server behind nginx (docs/deploy/nginx.conf)", .serialized)
struct BehindNginxTests {
  static let token = "an-admin-token-behind-nginx"

  /// The server as the systemd unit runs it (a token, nginx trusted), and nginx in front.
  static func start() async throws -> (server: QnAServerProcess, nginx: ProxyProcess) {
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--admin-token", token, "--trusted-proxy", "127.0.0.1",
    ])
    let example = try String(
      contentsOf: PeerProcess.packageRoot.appendingPathComponent("docs/deploy/nginx.conf"),
      encoding: .utf8)
    #expect(example.contains("listen 80;") && example.contains("server 127.0.0.1:8080;"))
    let nginx = try ProxyProcess.nginx { port in
      example.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
        .replacingOccurrences(
          of: "server 127.0.0.1:8080;", with: "server 127.0.0.1:\(server.port);")
    }
    return (server, nginx)
  }

  static func http(
    _ method: String, _ path: String, port: Int, headers: [String: String] = [:]
  ) async throws -> HTTPResponse {
    try await onOwnThread { try httpRequest(method, port: port, path: path, headers: headers) }
  }

  @Test func anAttendeeAsksThroughNginxAndThePresentersAnswerComesBack() async throws {
    let (server, nginx) = try await Self.start()
    defer { server.stop() }
    let attendee = try Attendee("ws://127.0.0.1:\(nginx.port)/socket")
    try await attendee.ask("Through the proxy?", as: try await attendee.handshake())
    let id = try #require(try await attendee.response().id)
    let answered = try await Self.http(
      "POST", "/api/questions/\(id)/answer", port: nginx.port,
      headers: ["Authorization": "Bearer \(Self.token)"])
    #expect(answered.status == 200)
    _ = try await attendee.waitForMessage("the answer, through nginx") {
      if case .questionAnswer(let answer) = $0 { answer.questionId == id } else { false }
    }
    await attendee.close()
  }

  @Test func theProbesPassAndTheTokenAndOriginChecksStillHold() async throws {
    let (server, nginx) = try await Self.start()
    defer { server.stop() }
    #expect(try await Self.http("GET", "/healthz", port: nginx.port).status == 200)
    #expect(try await Self.http("GET", "/readyz", port: nginx.port).status == 200)
    #expect(try await Self.http("GET", "/api/questions", port: nginx.port).status == 401)
    // The browser's Host, port and all, reaches the server: its own origin is still its own.
    let host = "127.0.0.1:\(nginx.port)"
    let socket = """
      GET /socket HTTP/1.1\r
      Host: \(host)\r
      Upgrade: websocket\r
      Connection: Upgrade\r
      Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
      Sec-WebSocket-Version: 13\r

      """
    let same = try await onOwnThread {
      try rawHTTPRequest(
        port: nginx.port, socket + "Origin: http://\(host)\r\n\r\n", headOnly: true)
    }
    #expect(same.status == 101, "a page of the server's own")
    let evil = try await onOwnThread {
      // The head only: nginx keeps the connection open after the refusal.
      try rawHTTPRequest(
        port: nginx.port, socket + "Origin: http://evil.example\r\n\r\n", headOnly: true)
    }
    #expect(evil.status == 403, "a page of another site")
  }
}
