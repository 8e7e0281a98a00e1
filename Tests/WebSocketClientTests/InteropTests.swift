import Foundation
import RFC6455
import Synchronization
import TestSupport
import Testing
import WebSocketClient

/// Runs `body` but fails the test instead of hanging when it takes longer than `seconds`.
func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T)
  async throws -> T
{
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      return nil
    }
    guard let result = try await group.next()! else {
      group.cancelAll()
      throw TimedOut(seconds: seconds)
    }
    group.cancelAll()
    return result
  }
}

struct TimedOut: Error, CustomStringConvertible {
  let seconds: Double
  var description: String { "timed out after \(seconds) s" }
}

/// Reads a client's events until `predicate` matches one; returns all seen so far.
func events(
  of client: WebSocketClient, until predicate: @escaping @Sendable (ClientEvent) -> Bool,
  timeout: Double = 10
) async throws -> [ClientEvent] {
  try await within(timeout) {
    var seen: [ClientEvent] = []
    for await event in client.events {
      seen.append(event)
      if predicate(event) { return seen }
    }
    return seen
  }
}

/// Sends a binary and a text message of each size (text of `character`s, about that many
/// bytes) and expects both back unchanged, in order.
func expectEchoes(of client: WebSocketClient, sizes: [Int], character: Character) async throws {
  let width = String(character).utf8.count
  for size in sizes {
    let binary = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 131) }
    try await client.send(binary: binary)
    let text = String(repeating: character, count: size / width)
    try await client.send(text: text)
    let echoes = try await events(
      of: client,
      until: { event in
        if case .message(let message) = event { message.kind == .text } else { false }
      }, timeout: 30)
    #expect(
      echoes.filter(isMessage) == [.message(.binary(binary)), .message(.text(text))], "size \(size)"
    )
  }
}

func isOpened(_ event: ClientEvent) -> Bool { if case .opened = event { true } else { false } }
func isMessage(_ event: ClientEvent) -> Bool { if case .message = event { true } else { false } }
func isDisconnected(_ event: ClientEvent) -> Bool {
  if case .disconnected = event { true } else { false }
}

@Suite("Interop with Python websockets (an implementation we did not write)", .serialized)
struct PythonInteropTests {
  func client(
    _ path: String, port: Int,
    configuration: ClientConfiguration = ClientConfiguration(pingInterval: nil)
  )
    throws -> WebSocketClient
  {
    WebSocketClient(
      url: try WebSocketURL("ws://127.0.0.1:\(port)\(path)"), configuration: configuration)
  }

  /// What websockets agreed to for each offer (it reports its response header), and a
  /// compressible message each way under it.
  @Test(arguments: [
    // websockets' server picks 12-bit windows unless asked for less.
    (DeflateOffer(), "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"),
    (
      DeflateOffer(serverNoContextTakeover: true),
      "permessage-deflate; server_no_context_takeover; server_max_window_bits=12; client_max_window_bits=12"
    ),
    (
      DeflateOffer(clientNoContextTakeover: true, clientMaxWindowBits: 10),
      "permessage-deflate; client_no_context_takeover; server_max_window_bits=12; client_max_window_bits=10"
    ),
    (
      DeflateOffer(serverMaxWindowBits: 10),
      "permessage-deflate; server_max_window_bits=10; client_max_window_bits=12"
    ),
  ])
  func permessageDeflateIsNegotiatedAsOffered(_ offer: DeflateOffer, _ agreed: String) async throws
  {
    let server = try PeerProcess(script: "echo_server.py")
    var configuration = ClientConfiguration(pingInterval: nil)
    configuration.handshake.deflate = offer
    let client = try client("/extensions", port: server.port, configuration: configuration)
    client.start()
    let first = try await events(of: client, until: isMessage).last
    #expect(first == .message(.text(agreed)))
    let text = String(repeating: "compress me, please; ", count: 3000)
    for _ in 0..<2 {
      try await client.send(text: text)
      #expect(try await events(of: client, until: isMessage).last == .message(.text(text)))
    }
    await client.close()
  }

  @Test func withDeflateOffNothingIsOffered() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    var configuration = ClientConfiguration(pingInterval: nil)
    configuration.handshake.deflate = nil
    let client = try client("/extensions", port: server.port, configuration: configuration)
    client.start()
    #expect(try await events(of: client, until: isMessage).last == .message(.text("")))
    await client.close()
  }

  @Test func echoesTextAndBinaryFromEmptyTo8MiB() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    let client = try client("/echo", port: server.port)
    client.start()
    _ = try await events(of: client, until: isOpened)
    try await expectEchoes(
      of: client, sizes: [0, 1, 125, 126, 65535, 65536, 1 << 20, 8 << 20], character: "ü")
    await client.close()
  }

  @Test func fragmentedMessagesArriveWhole() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    let client = try client("/fragments?n=5", port: server.port)
    client.start()
    let seen = try await events(of: client, until: isMessage)
    #expect(seen.last == .message(.text("part0-part1-part2-part3-part4-")))
    await client.close()
  }

  @Test func serverPingsAreAnsweredAndOurPingsTimed() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    let client = try client(
      "/ping", port: server.port,
      configuration: ClientConfiguration(pingInterval: .milliseconds(200), pingTimeout: .seconds(5))
    )
    client.start()
    let seen = try await events(
      of: client,
      until: { event in
        if case .roundTrip = event { true } else { false }
      })
    #expect(seen.contains(.message(.text("pong received"))))
    await client.close()
  }

  @Test func serverCloseCodesAndReasonsArriveIntact() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    for (code, reason) in [(1000, "done"), (1001, "going"), (1011, "oops"), (4001, "custom")] {
      let client = try client("/close?code=\(code)&reason=\(reason)", port: server.port)
      client.start()
      let seen = try await events(of: client, until: isDisconnected)
      #expect(
        seen.last
          == .disconnected(
            .closed(
              CloseStatus(
                code: CloseCode(UInt16(code)), reason: reason, wasClean: true, closedByPeer: true)))
      )
      await client.close()
    }
  }

  @Test func clientCloseCompletesTheHandshake() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    let client = try client("/echo", port: server.port)
    client.start()
    _ = try await events(of: client, until: isOpened)
    try await within(10) { await client.close(code: CloseCode(4002), reason: "bye") }
    var rest: [ClientEvent] = []
    for await event in client.events { rest.append(event) }
    #expect(rest == [.disconnected(.userClosed)])
  }

  @Test func subprotocolIsNegotiated() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    let client = try client(
      "/echo", port: server.port,
      configuration: ClientConfiguration(
        handshake: HandshakeOptions(subprotocols: ["v2.qna", "chat"]), pingInterval: nil))
    client.start()
    let seen = try await events(of: client, until: isOpened)
    #expect(seen.last == .opened(subprotocol: "chat", attempt: 1))
    await client.close()
  }

  @Test func customHeadersReachTheServer() async throws {
    let server = try PeerProcess(script: "echo_server.py")
    var options = HandshakeOptions(origin: "https://qna.example")
    options.extraHeaders.append(name: "Authorization", value: "Bearer s3cret")
    let client = try client(
      "/headers", port: server.port,
      configuration: ClientConfiguration(handshake: options, pingInterval: nil))
    client.start()
    let seen = try await events(of: client, until: isMessage)
    guard case .message(let message) = seen.last, let text = message.text else {
      Issue.record("no headers message")
      return
    }
    let headers = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
    #expect(headers?["authorization"] == "Bearer s3cret")
    #expect(headers?["origin"] == "https://qna.example")
    #expect(headers?["host"] == "127.0.0.1:\(server.port)")
    await client.close()
  }

  @Test func wssWithASelfSignedCertificateNeedsItsCA() async throws {
    let tls = try TestCertificate()
    let server = try tls.echoServer()
    let cert = tls.certificate
    let url = try WebSocketURL("wss://localhost:\(server.port)/echo")

    let untrusting = WebSocketClient(
      url: url, configuration: ClientConfiguration(pingInterval: nil))
    untrusting.start()
    let refused = try await events(of: untrusting, until: isDisconnected)
    guard case .disconnected(.tlsFailed) = refused.last else {
      Issue.record("expected a TLS failure, got \(refused)")
      return
    }
    await untrusting.close()

    let trusting = WebSocketClient(
      url: url, configuration: ClientConfiguration(tls: TLSOptions(caFile: cert), pingInterval: nil)
    )
    trusting.start()
    _ = try await events(of: trusting, until: isOpened)
    try await trusting.send(text: "over TLS")
    let echoed = try await events(of: trusting, until: isMessage)
    #expect(echoed.last == .message(.text("over TLS")))
    await trusting.close()
  }
}

@Suite("Faults: servers that misbehave", .serialized)
struct FaultTests {
  let fastRetry = ReconnectPolicy(initialDelay: .milliseconds(200), maximumDelay: .seconds(1))

  func client(_ path: String, port: Int, _ configuration: ClientConfiguration) throws
    -> WebSocketClient
  {
    WebSocketClient(
      url: try WebSocketURL("ws://127.0.0.1:\(port)\(path)"), configuration: configuration)
  }

  @Test func aServerThatStopsAnsweringPingsIsDetectedThenReconnected() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    let interval = Duration.milliseconds(300)
    let timeout = Duration.milliseconds(300)
    let client = try client(
      "/no-pong", port: server.port,
      ClientConfiguration(pingInterval: interval, pingTimeout: timeout, reconnect: fastRetry))
    client.start()
    _ = try await events(of: client, until: isOpened)
    let opened = ContinuousClock.now
    let seen = try await events(of: client, until: isDisconnected)
    let detection = ContinuousClock.now - opened
    guard case .disconnected(.pingTimeout) = seen.last else {
      Issue.record("expected a ping timeout, got \(seen)")
      return
    }
    // Within interval + timeout, plus scheduling slack for a loaded 2-core machine (a
    // half-open link without keep-alive would never be noticed at all).
    #expect(
      detection >= interval + timeout && detection < interval + timeout + .seconds(3),
      "detected after \(detection)")
    let next = try await events(of: client, until: isOpened)
    #expect(next.contains { if case .reconnecting = $0 { true } else { false } })
    await client.close()
  }

  @Test func invalidUTF8FailsFastBeforeTheRestOfTheFrameArrives() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    let client = try client(
      "/fail-fast-utf8", port: server.port, ClientConfiguration(pingInterval: nil))
    client.start()
    _ = try await events(of: client, until: isOpened)
    let opened = ContinuousClock.now
    let seen = try await events(of: client, until: isDisconnected)
    let elapsed = ContinuousClock.now - opened
    guard case .disconnected(.closed(let status)) = seen.last else {
      Issue.record("got \(seen)")
      return
    }
    #expect(status.code == .invalidPayloadData)
    #expect(status.error == .protocolViolation(.invalidUTF8(messageOffset: 4)))
    // The rest of the frame comes after 2 s: failing sooner proves we did not wait for it.
    #expect(elapsed < .milliseconds(1500), "failed after \(elapsed)")
  }

  @Test func tcpDroppedMidMessageIsAbnormal() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    let client = try client(
      "/drop-mid-message", port: server.port, ClientConfiguration(pingInterval: nil))
    client.start()
    let seen = try await events(of: client, until: isDisconnected)
    guard case .disconnected(.closed(let status)) = seen.last else {
      Issue.record("got \(seen)")
      return
    }
    #expect(status.code == .abnormalClosure && !status.wasClean)
    #expect(!seen.contains(where: isMessage))
  }

  @Test func refusedUpgradesCarryTheStatusAndThePolicyDecidesRetries() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    for status in [401, 404, 500] {
      let client = try client(
        "/status/\(status)", port: server.port,
        ClientConfiguration(pingInterval: nil, reconnect: fastRetry))
      client.start()
      let seen = try await events(of: client, until: isDisconnected)
      guard case .disconnected(let why) = seen.last else {
        Issue.record("no disconnect: \(seen)")
        return
      }
      #expect(why.refusalStatus == status)
      let next = try await events(of: client, until: { _ in true }, timeout: 5)
      if status == 500 {
        guard case .reconnecting = next.first else {
          Issue.record("500 should be retried, got \(next)")
          return
        }
      } else {
        #expect(next.isEmpty, "\(status) must not be retried")
      }
      await client.close()
    }
  }

  @Test func aServerClosingWith1001AndComingBackIsReconnectedWithAFreshHandshake() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    let client = try client(
      "/restart", port: server.port, ClientConfiguration(pingInterval: nil, reconnect: fastRetry))
    client.start()
    let seen = try await events(
      of: client,
      until: { event in
        if case .opened(_, let attempt) = event { return attempt > 1 } else { return false }
      }, timeout: 20)
    #expect(
      seen.contains(
        .disconnected(
          .closed(
            CloseStatus(code: .goingAway, reason: "restarting", wasClean: true, closedByPeer: true))
        )))
    #expect(seen.filter(isOpened).count == 2)
    await client.close()
  }

  @Test func aFrameInTheSameWriteAsThe101IsDelivered() async throws {
    let server = try PeerProcess(script: "fault_server.py")
    let client = try client(
      "/frame-with-101", port: server.port, ClientConfiguration(pingInterval: nil))
    client.start()
    let seen = try await events(of: client, until: isMessage)
    #expect(seen.last == .message(.text("hello")))
    try await client.send(text: "and back")
    #expect(try await events(of: client, until: isMessage).last == .message(.text("and back")))
    await client.close()
  }
}
