import Hummingbird
import HummingbirdCore
import HummingbirdWSCompression
import HummingbirdWebSocket
import Logging
import NIOCore
import QnAGuards
import QnARoom

extension QnAServerApp {
  /// Hummingbird's HTTP/1 with the WebSocket upgrade, inside the project's guards: the
  /// connection ledger and timeouts on raw bytes, the request gate behind the HTTP decoder.
  func serverBuilder(openFiles: Int) -> HTTPServerBuilder {
    let configuration = self.configuration
    let logger = self.logger
    // Keep clear of the open-file limit: past it, accept() fails and nobody gets in.
    let ledger = ConnectionLedger(
      limits: .init(
        maxOpen: max(64, min(configuration.maxOpenConnections, openFiles - 128)),
        maxHTTPConnectionsPerAddress: configuration.maxHTTPConnectionsPerAddress,
        exempt: { [trusted = Set(configuration.trustedProxies)] address in
          trusted.contains(address) || LoopbackHost.isLoopback(bindAddress: address)
        }))
    let webSocketResponder = SocketController(
      configuration: configuration, rooms: rooms, auth: auth, addresses: addresses,
      deflaters: deflaters, logger: logger
    ).router().buildResponder()
    let policy = RequestPolicy(
      loopbackOnly: configuration.adminToken == nil && !configuration.allowPublic,
      allowedOrigins: Set(configuration.allowedOrigins.map { $0.lowercased() }))
    let judgeUpgrade = Self.drainable(
      Self.forwarded(auth.upgradeJudge(rooms: rooms), addresses: addresses),
      sockets: rooms.main.sockets)
    let timeouts = ConnectionGuard.Timeouts(
      header: TimeAmount(configuration.headerTimeout),
      writeStall: TimeAmount(configuration.writeStallTimeout))
    let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
      http1: .init(idleTimeout: TimeAmount(configuration.idleTimeout)),
      ws: .init(
        maxFrameSize: configuration.maxMessageSize,
        extensions: deflateExtensions(),
        autoPing: configuration.pingInterval.map { .enabled(timePeriod: $0) } ?? .disabled,
        closeTimeout: .seconds(5),
        // Text that is not UTF-8 fails the connection with 1007 (RFC 6455 §8.1), instead of
        // reaching the room with its bad bytes replaced.
        validateUTF8: true))
    return HTTPServerBuilder { responder in
      GuardedChannel(
        base: HTTP1WebSocketUpgradeChannel(
          responder: responder, webSocketResponder: webSocketResponder,
          configuration: channelConfiguration),
        makeGuard: {
          ConnectionGuard(ledger: ledger, timeouts: timeouts) { line in logger.info("\(line)") }
        },
        makeGate: { refusal in
          RequestGate(policy: policy, judgeUpgrade: judgeUpgrade) { status, reason, head in
            refusal.mark()
            logger.warning(
              "refused \(head.method) \(head.uri) with \(status.code): \(reason)",
              metadata: ["host": "\(head.headers["Host"])", "origin": "\(head.headers["Origin"])"])
          }
        })
    }
  }

  /// The judge sees the client's address, not a trusted proxy's: behind nginx, one
  /// attendee's unknown join codes must not use up every attendee's guessing budget.
  static func forwarded(_ judge: @escaping UpgradeJudge, addresses: ClientAddress) -> UpgradeJudge {
    { head, peer in
      judge(head, addresses.of(peer: peer, forwardedFor: head.headers["X-Forwarded-For"]))
    }
  }

  /// While the instance shuts down, a new socket gets 503 before its upgrade: a proxy
  /// (nginx's `proxy_next_upstream … http_503`) sends it on to another instance, so that its
  /// client reconnects once, not once here and again when this instance closes it.
  static func drainable(_ judge: @escaping UpgradeJudge, sockets: SocketHub) -> UpgradeJudge {
    { head, peer in
      guard !sockets.isDraining else {
        return .decided(
          .refuse(
            .serviceUnavailable, "This instance is shutting down: connect again."))
      }
      return judge(head, peer)
    }
  }

  /// permessage-deflate as the room shares it (`PooledDeflateBuilder`), or, with
  /// `--legacy-broadcast`, as hummingbird-websocket makes it for each socket.
  private func deflateExtensions() -> [WebSocketExtensionFactory] {
    guard configuration.deflate else { return [] }
    // Frames may inflate past the message limit, so that the limit is checked on the
    // message and answered with 1009, as without compression; a frame past this bound (a
    // compression bomb) is answered with 1009 too.
    let maxInflated = configuration.maxMessageSize * 16
    if let deflaters {
      let builder = PooledDeflateBuilder(
        deflaters: deflaters,
        requireClientNoContextTakeover: configuration.deflateNoContextTakeover,
        maxInflatedFrameSize: maxInflated)
      return [WebSocketExtensionFactory { builder }]
    }
    return [
      PerSocketDeflateBuilder.factory(
        .perMessageDeflate(
          clientMaxWindow: configuration.deflateWindowBits,
          clientNoContextTakeover: configuration.deflateNoContextTakeover,
          serverMaxWindow: configuration.deflateWindowBits,
          serverNoContextTakeover: configuration.deflateNoContextTakeover,
          compressionLevel: configuration.deflateLevel,
          memoryLevel: configuration.deflateMemoryLevel,
          maxDecompressedFrameSize: maxInflated))
    ]
  }
}
