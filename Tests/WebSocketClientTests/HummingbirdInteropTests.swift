import Hummingbird
import HummingbirdWSCompression
import HummingbirdWebSocket
import Logging
import NIOCore
import RFC6455
import Synchronization
import TestSupport
import Testing
import WebSocketClient

/// A server built on hummingbird-websocket (an independent WebSocket implementation), run in
/// this process on a free loopback port.
final class HummingbirdPeer: Sendable {
  let port: Int
  private let service: Task<Void, any Error>
  /// How many messages `/flood` has handed to the socket so far.
  var flooded: Int { floodCount.value.withLock { $0 } }
  private let floodCount = Counter()

  private final class Counter: Sendable {
    let value = Mutex(0)
  }

  /// `/flood` sends this many 1 MiB binary messages, message i filled with the byte i % 256.
  static let floodMessages = 200

  /// Stopping by cancellation makes Hummingbird log an "Already closed" error: noise here.
  static var quietLogger: Logger {
    var logger = Logger(label: "interop-peer")
    logger.logLevel = .critical
    return logger
  }

  /// `deflate`: permessage-deflate as hummingbird-websocket's extension offers it.
  init(deflate: WebSocketExtensionFactory? = nil) async throws {
    let ready = AsyncStream<Int>.makeStream()
    let floodCount = self.floodCount
    let app = Application(
      router: Router(),
      server: .http1WebSocketUpgrade(
        configuration: .init(
          ws: .init(maxFrameSize: 16 << 20, extensions: deflate.map { [$0] } ?? []))
      ) {
        request, _, _ in
        let path = request.path
        let agent = request.headerFields[.userAgent] ?? ""
        return .upgrade([:]) { inbound, outbound, _ in
          switch path {
          case "/agent":
            try await outbound.write(.text("agent: \(agent)"))
          case "/close":
            try await outbound.close(.unknown(3000), reason: "Because")
            return
          case "/flood":
            // Each write waits while the socket is full: the count shows what the client took.
            for index in 0..<Self.floodMessages {
              try await outbound.write(
                .binary(ByteBuffer(repeating: UInt8(index % 256), count: 1 << 20)))
              floodCount.value.withLock { $0 += 1 }
            }
          default:
            break
          }
          for try await message in inbound.messages(maxSize: 16 << 20) {
            switch message {
            case .text(let text): try await outbound.write(.text(text))
            case .binary(let buffer): try await outbound.write(.binary(buffer))
            }
          }
        }
      },
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        ready.continuation.yield(channel.localAddress?.port ?? 0)
        ready.continuation.finish()
      },
      logger: Self.quietLogger
    )
    service = Task { try await app.runService() }
    var ports = ready.stream.makeAsyncIterator()
    port = await ports.next() ?? 0
  }

  func stop() async {
    service.cancel()
    _ = try? await service.value
  }
}

@Suite("Interop with hummingbird-websocket", .serialized)
struct HummingbirdInteropTests {
  func client(
    _ path: String, port: Int,
    _ configuration: ClientConfiguration = ClientConfiguration(pingInterval: nil)
  )
    throws -> WebSocketClient
  {
    WebSocketClient(
      url: try WebSocketURL("ws://127.0.0.1:\(port)\(path)"), configuration: configuration)
  }

  @Test func echoesTextAndBinaryOfEverySizeClass() async throws {
    let server = try await HummingbirdPeer()
    let client = try client("/echo", port: server.port)
    client.start()
    _ = try await events(of: client, until: isOpened)
    try await expectEchoes(of: client, sizes: [0, 125, 126, 65536, 4 << 20], character: "€")
    await client.close()
    await server.stop()
  }

  /// Every negotiation variant both ways: each side's window and context takeover, offered
  /// by us or imposed by the server; compressible and incompressible messages round-trip.
  @Test func permessageDeflateInEveryVariant() async throws {
    // (Its inflated-frame limit is 16 KiB unless told otherwise.)
    let limit = 16 << 20
    let servers: [WebSocketExtensionFactory] = [
      .perMessageDeflate(maxDecompressedFrameSize: limit),
      .perMessageDeflate(noContextTakeover: true, maxDecompressedFrameSize: limit),
      .perMessageDeflate(maxWindow: 9, maxDecompressedFrameSize: limit),
      .perMessageDeflate(
        clientMaxWindow: 10, clientNoContextTakeover: true, serverMaxWindow: 12,
        serverNoContextTakeover: false, maxDecompressedFrameSize: limit, minFrameSizeToCompress: 16),
    ]
    let offers = [
      DeflateOffer(), DeflateOffer(serverNoContextTakeover: true, clientNoContextTakeover: true),
      DeflateOffer(serverMaxWindowBits: 11, clientMaxWindowBits: 12),
    ]
    var random = SplitMix64(seed: 20)
    let noise = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    for server in servers {
      let peer = try await HummingbirdPeer(deflate: server)
      for offer in offers {
        var configuration = ClientConfiguration(pingInterval: nil)
        configuration.handshake.deflate = offer
        let client = try client("/echo", port: peer.port, configuration)
        client.start()
        _ = try await events(of: client, until: isOpened)
        let text = String(repeating: "Is the room's question compressed? ", count: 2000)
        for message in [RFC6455.WebSocketMessage.text(text), .text("short"), .text(text)] {
          try await client.send(message)
          let echoed = try await events(of: client, until: isMessage).last
          #expect(echoed == .message(message), "\(offer)")
        }
        try await client.send(RFC6455.WebSocketMessage(kind: .binary, data: noise))
        #expect(
          try await events(of: client, until: isMessage).last
            == .message(RFC6455.WebSocketMessage(kind: .binary, data: noise)))
        await client.close()
      }
      await peer.stop()
    }
  }

  @Test func headersReachTheServer() async throws {
    let server = try await HummingbirdPeer()
    var options = HandshakeOptions()
    options.extraHeaders.append(name: "User-Agent", value: "qna-tests/1")
    let client = try client(
      "/agent", port: server.port, ClientConfiguration(handshake: options, pingInterval: nil))
    client.start()
    let seen = try await events(of: client, until: isMessage)
    #expect(seen.last == .message(.text("agent: qna-tests/1")))
    await client.close()
    await server.stop()
  }

  @Test func serverCloseCodeAndReasonArrive() async throws {
    let server = try await HummingbirdPeer()
    let client = try client("/close", port: server.port)
    client.start()
    let seen = try await events(of: client, until: isDisconnected)
    guard case .disconnected(.closed(let status)) = seen.last else {
      Issue.record("got \(seen)")
      return
    }
    #expect(status.code == CloseCode(3000) && status.reason == "Because" && status.wasClean)
    await server.stop()
  }

  @Test func aConsumerThatStopsReadingHoldsTheServerBack() async throws {
    let server = try await HummingbirdPeer()
    let client = try client(
      "/flood", port: server.port, ClientConfiguration(pingInterval: nil, eventBufferSize: 4))
    client.start()
    var events = client.events.makeAsyncIterator()
    while let event = await events.next() {
      if case .opened = event { break }
    }
    // Not reading: the client holds a few events, the kernel a few MiB, and then the server
    // must wait. Unbounded buffering would have taken all 200 MiB by now.
    try await Task.sleep(for: .seconds(1))
    let takenWhilePaused = server.flooded
    #expect(takenWhilePaused < HummingbirdPeer.floodMessages / 2)
    var received: [UInt8] = []
    while received.count < HummingbirdPeer.floodMessages, let event = await events.next() {
      if case .message(let message) = event {
        #expect(message.data.count == 1 << 20)
        received.append(message.data.first ?? 0)
      }
    }
    #expect(received == (0..<HummingbirdPeer.floodMessages).map { UInt8($0 % 256) })
    await client.close()
    await server.stop()
  }

  @Test func keepAlivePingsAreAnswered() async throws {
    let server = try await HummingbirdPeer()
    let client = try client(
      "/echo", port: server.port,
      ClientConfiguration(pingInterval: .milliseconds(100), pingTimeout: .seconds(5)))
    client.start()
    let seen = try await events(
      of: client, until: { if case .roundTrip = $0 { true } else { false } })
    #expect(seen.contains(where: isOpened))
    await client.close()
    await server.stop()
  }
}
