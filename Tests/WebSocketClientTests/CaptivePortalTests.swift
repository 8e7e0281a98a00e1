import Foundation
import RFC6455
import TestSupport
import Testing
import WebSocketClient

/// Conference Wi-Fi before the attendee accepts its terms: a captive portal answers every
/// connection with its own page, and its certificate (or no TLS at all) for `wss://`. The
/// client keeps trying, with backoff, until the real server answers.
@Suite("A captive portal, then the real server", .serialized)
struct CaptivePortalTests {
  @Test func aTLSFailureIsRetriedUntilTheServerAnswers() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qna-portal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let cert = directory.appendingPathComponent("cert.pem").path
    let key = directory.appendingPathComponent("key.pem").path
    let openssl = try ChildProcess(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days",
        "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ])
    #expect(await onOwnThread { openssl.wait() } == 0)

    let portal = try PeerProcess(script: "fault_server.py", arguments: ["--portal"])
    let port = portal.port
    let client = WebSocketClient(
      url: try WebSocketURL("wss://localhost:\(port)/echo"),
      configuration: ClientConfiguration(
        tls: TLSOptions(caFile: cert), pingInterval: nil,
        reconnect: ReconnectPolicy(initialDelay: .milliseconds(200), maximumDelay: .seconds(1))))
    client.start()
    let failed = try await events(
      of: client,
      until: { if case .reconnecting = $0 { true } else { false } })
    #expect(
      failed.contains { if case .disconnected(.tlsFailed) = $0 { true } else { false } },
      "\(failed)")
    portal.stop()
    let server = try PeerProcess(
      script: "echo_server.py", arguments: ["--port", "\(port)", "--cert", cert, "--key", key])
    defer { server.stop() }
    _ = try await events(of: client, until: isOpened, timeout: 20)
    try await client.send(text: "through at last")
    let echoed = try await events(of: client, until: isMessage)
    #expect(echoed.last == .message(.text("through at last")))
    await client.close()
  }
}
