import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWSCompression
import HummingbirdWebSocket
import Logging
import NIOCore
import QnA
import ServiceLifecycle
import Synchronization

/// Why the server would not start.
public enum ServerStartError: Error, CustomStringConvertible {
  case publicWithoutToken(String)
  case weakToken
  case invalidReject(String)
  case store(StoreError)

  public var description: String {
    switch self {
    case .publicWithoutToken(let host):
      "refusing to listen on \(host) without --admin-token: anyone could answer questions "
        + "(give --admin-token TOKEN, or --allow-public to accept that)"
    case .weakToken:
      "--admin-token must be at least 12 characters (an empty one would let anyone in)"
    case .invalidReject(let detail): "--reject is not a valid regular expression: \(detail)"
    case .store(let error): "\(error)"
    }
  }
}

/// `qna-server`: the WebSocket endpoint, the presenter routes, the API and, with `--mock`,
/// the control routes, on one Hummingbird application.
public struct QnAServerApp: Sendable {
  public let configuration: ServerConfiguration
  let desk: QuestionDesk
  /// Every session's desk, the default one (`desk`) included.
  let desks: SessionDesks
  let logger: Logger
  let sessions: PresenterSessions
  let throttle: LoginThrottle
  let addresses: ClientAddress

  public init(
    configuration: ServerConfiguration, environment: ServerEnvironment = ServerEnvironment(),
    logger: Logger = Logger(label: "qna-server")
  ) throws(ServerStartError) {
    if let token = configuration.adminToken, token.count < 12 { throw .weakToken }
    if configuration.adminToken == nil, !configuration.allowPublic,
      !configuration.bindsLoopbackOnly
    {
      throw .publicWithoutToken(configuration.host)
    }
    let store: QuestionStore
    do {
      store = try QuestionStore(
        location: configuration.databasePath, metrics: ServerMetrics(), logger: logger)
    } catch {
      throw .store(error)
    }
    do {
      desk = try QuestionDesk(
        store: store, hub: SocketHub(logger: logger),
        room: RoomHub(store: store, window: configuration.roomWindow, logger: logger),
        configuration: configuration, environment: environment, logger: logger)
    } catch {
      throw .invalidReject("\(error)")
    }
    desks = SessionDesks(main: desk, logger: logger) { [desk] store in desk.forSession(store) }
    self.configuration = configuration
    self.logger = logger
    sessions = PresenterSessions(
      lifetime: configuration.sessionLifetime, uptime: environment.uptime,
      makeID: environment.makeID)
    throttle = LoginThrottle(uptime: environment.uptime)
    addresses = ClientAddress(trustedProxies: Set(configuration.trustedProxies))
  }

  /// Serves until SIGINT/SIGTERM (then closes every socket with 1001 and returns) or until
  /// the task is cancelled. `onListening` gets the bound port.
  public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
    let openFiles = FileLimit.raiseToHardLimit()
    logger.info(
      "open files: \(openFiles.soft) allowed (was \(openFiles.before), hard limit \(openFiles.hard))"
    )
    // Keep clear of the open-file limit: past it, accept() fails and nobody gets in.
    let ledger = ConnectionLedger(
      limits: .init(
        maxOpen: max(64, min(configuration.maxOpenConnections, openFiles.soft - 128)),
        maxHTTPConnectionsPerAddress: configuration.maxHTTPConnectionsPerAddress,
        exempt: { [trusted = Set(configuration.trustedProxies)] address in
          trusted.contains(address) || LoopbackHost.isLoopback(bindAddress: address)
        }))
    let application = Application(
      router: httpRouter(),
      server: serverBuilder(ledger: ledger),
      // A room of attendees reconnects at once after a Wi-Fi drop; past Hummingbird's default
      // of 256 pending connections the rest would wait out TCP's one-second SYN retry. (The
      // kernel caps this at net.core.somaxconn.)
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), backlog: 4096),
      onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
      logger: logger)
    // PostgreSQL's schema, before the first socket; then the other instances' changes.
    do {
      try await desk.store.prepare()
    } catch {
      await desk.store.close()
      throw error
    }
    let feed = desk.store.backend.roomFeed.map { feed in
      feed.listen()
      return Task { [desks] in
        for await event in feed.events { desks.apply(event) }
      }
    }
    defer { feed?.cancel() }
    // The hub comes after the application: services shut down in reverse order, so the hub
    // closes the sockets with 1001 while the server is still running.
    let group = ServiceGroup(
      configuration: .init(
        services: [.init(service: application), .init(service: desk.hub)],
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    do {
      try await group.run()
    } catch {
      await desk.store.close()
      throw error
    }
    await desk.store.close()
  }

  /// Hummingbird's HTTP/1 with the WebSocket upgrade, inside the project's guards.
  private func serverBuilder(ledger: ConnectionLedger) -> HTTPServerBuilder {
    let webSocketResponder = webSocketRouter().buildResponder()
    let configuration = self.configuration
    let logger = self.logger
    let policy = RequestPolicy(
      loopbackOnly: configuration.adminToken == nil && !configuration.allowPublic,
      allowedOrigins: Set(configuration.allowedOrigins.map { $0.lowercased() }))
    let presenters = PresenterSocketAuth(
      token: configuration.adminToken, sessions: sessions, throttle: throttle)
    let sessionSockets = SessionSocketJudge(
      desks: desks, credentials: sessionCredentials(), throttle: throttle)
    let timeouts = ConnectionGuard.Timeouts(
      header: TimeAmount(configuration.headerTimeout),
      writeStall: TimeAmount(configuration.writeStallTimeout))
    let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
      http1: .init(idleTimeout: TimeAmount(configuration.idleTimeout)),
      ws: .init(
        maxFrameSize: configuration.maxMessageSize,
        extensions: configuration.deflate
          ? [
            .perMessageDeflate(
              clientMaxWindow: configuration.deflateWindowBits,
              clientNoContextTakeover: configuration.deflateNoContextTakeover,
              serverMaxWindow: configuration.deflateWindowBits,
              serverNoContextTakeover: configuration.deflateNoContextTakeover,
              compressionLevel: configuration.deflateLevel,
              memoryLevel: configuration.deflateMemoryLevel,
              // Frames may inflate past the message limit, so that the limit is checked on
              // the message and answered with 1009, as without compression; hummingbird
              // answers a frame past this bound with 1011. Bounded all the same.
              maxDecompressedFrameSize: configuration.maxMessageSize * 16)
          ] : [],
        autoPing: configuration.pingInterval.map { .enabled(timePeriod: $0) } ?? .disabled,
        closeTimeout: .seconds(5)))
    return HTTPServerBuilder { responder in
      GuardedChannel(
        base: HTTP1WebSocketUpgradeChannel(
          responder: responder, webSocketResponder: webSocketResponder,
          configuration: channelConfiguration),
        makeGuard: {
          ConnectionGuard(ledger: ledger, timeouts: timeouts) { line in logger.info("\(line)") }
        },
        makeGate: { refusal in
          RequestGate(policy: policy, presenters: presenters, sessionSockets: sessionSockets) {
            status, reason, head in
            refusal.mark()
            logger.warning(
              "refused \(head.method) \(head.uri) with \(status.code): \(reason)",
              metadata: ["host": "\(head.headers["Host"])", "origin": "\(head.headers["Origin"])"])
          }
        })
    }
  }

  private func httpRouter() -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    let presenter = router.group()
    if let token = configuration.adminToken {
      addLoginRoutes(to: router)
      presenter.add(
        middleware: AdminAuth(
          token: token, sessions: sessions, throttle: throttle, addresses: addresses))
    }
    Self.addPresenterRoutes(to: presenter, base: { _ in "/" }, desk: { [desk] _ in desk })
    addSessionAdminRoutes(to: presenter)
    addSessionRoutes(to: router)
    addProbeRoutes(to: router)
    addMetricsRoute(to: presenter)
    if configuration.mock != nil { Self.addControlRoutes(to: presenter, desk: desk) }
    return router
  }

  private func webSocketRouter() -> Router<SocketRequestContext> {
    let router = Router(context: SocketRequestContext.self)
    let serve = SocketServer(
      desk: desk, configuration: configuration, logger: logger,
      sendBudget: SendBudget(limit: configuration.sendQueueTotalLimit))
    router.ws("/socket") { inbound, outbound, context in
      // The request gate let a presenter's upgrade through only with the admin token.
      try await serve(inbound, outbound, context, desk: desk, session: nil)
    }
    // A session's socket: upgraded only for a session that exists, and for a presenter only
    // with that session's token (or the admin token). Refused upgrades go on to the HTTP
    // route of the same path, which says why.
    let desks = self.desks
    let credentials = sessionCredentials()
    router.ws(
      "/s/{code}/socket",
      shouldUpgrade: { request, context in
        guard let code = context.parameters.get("code"),
          let (session, desk) = try await desks.resolve(code)
        else { return .dontUpgrade }
        if PresenterSocketAuth.asksForPresenter(
          target: request.uri.string, hasAuthorization: request.headers[.authorization] != nil),
          !credentials.admits(request, to: session)
        {
          return .dontUpgrade
        }
        context.session.set(session, desk)
        return .upgrade([:])
      },
      onUpgrade: { inbound, outbound, context in
        guard let (session, desk) = context.requestContext.session.get() else { return }
        try await serve(inbound, outbound, context, desk: desk, session: session)
      })
    return router
  }

}

/// The WebSocket route's context: Hummingbird's, plus the channel (for drops and stalls).
struct SocketRequestContext: RequestContext, WebSocketRequestContext {
  var coreContext: CoreRequestContextStorage
  let webSocket: WebSocketHandlerReference<SocketRequestContext>
  let channel: any Channel
  /// The session the upgrade was judged for, handed from `shouldUpgrade` to the socket.
  let session = ResolvedSession()

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    webSocket = .init()
    channel = source.channel
  }
}

/// A session and its desk, set once the upgrade is allowed.
final class ResolvedSession: Sendable {
  private let value = Mutex<(SessionRecord, QuestionDesk)?>(nil)
  func set(_ session: SessionRecord, _ desk: QuestionDesk) {
    value.withLock { $0 = (session, desk) }
  }
  func get() -> (SessionRecord, QuestionDesk)? { value.withLock { $0 } }
}
