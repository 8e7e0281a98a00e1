import Foundation
import Hummingbird
import Logging
import QnAGuards
import QnARoom
import QnAStore
import QnAStoreLocation
import ServiceLifecycle

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

/// `qna-server`, put together: the store `--db` names, the rooms on it, the presenters'
/// credentials, and one Hummingbird application (`buildApplication`) with the WebSocket
/// endpoints, the presenter routes, the API and, with `--mock`, the control routes, inside
/// the request guards. Tests drive the application in process; `run` serves it.
public struct QnAServerApp: Sendable {
  public let configuration: ServerConfiguration
  /// Every session's room on this instance; `rooms.main` is the default session's.
  package let rooms: SessionRooms
  /// The compressors every socket's frames share; `nil` without deflate, or with
  /// `--legacy-broadcast`.
  let deflaters: CompressorPool?
  let metrics: ServerMetrics
  let auth: PresenterAuth
  let addresses: ClientAddress
  let logger: Logger

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
    let hooks: RoomHooks
    do {
      hooks = try MockHooks.make(configuration.mock, environment: environment)
    } catch {
      throw .invalidReject("\(error)")
    }
    let metrics = ServerMetrics()
    let store: QuestionStore
    do {
      var options = configuration.databaseOptions
      options.noticeLag = metrics.pool.noticeLag.record
      // A storm's commits in step with the room's broadcasts, whatever its window.
      options.votesLinger = configuration.roomWindow
      store = try StoreLocation.open(
        configuration.database, options: options, timing: metrics.database.record,
        logger: logger)
    } catch {
      throw .store(error)
    }
    if store.health == nil { metrics.pool.unregister(from: metrics.registry) }
    let deflaters =
      configuration.deflate && !configuration.legacyBroadcast
      ? CompressorPool(
        level: configuration.deflateLevel, memoryLevel: configuration.deflateMemoryLevel,
        maxWindowBits: configuration.deflateWindowBits)
      : nil
    self.deflaters = deflaters
    var settings = configuration.roomSettings
    settings.deflaters = deflaters
    let main = SessionRoom(
      store: store, sockets: SocketHub(logger: logger), settings: settings,
      environment: environment, metrics: metrics, hooks: hooks, logger: logger)
    rooms = SessionRooms(main: main, logger: logger)
    self.metrics = metrics
    self.configuration = configuration
    self.logger = logger
    // Logins and wrong guesses in the database: the same on every instance behind a proxy.
    let shared = store.isShared
    auth = PresenterAuth(
      adminToken: configuration.adminToken,
      logins: PresenterLogins(
        lifetime: configuration.loginLifetime, store: store, now: environment.now,
        makeID: environment.makeID),
      throttle: GuessThrottle(
        uptime: environment.uptime,
        shared: shared ? .init(store: store, kind: "token", now: environment.now) : nil),
      codeGuesses: GuessThrottle(
        uptime: environment.uptime,
        shared: shared ? .init(store: store, kind: "code", now: environment.now) : nil))
    addresses = ClientAddress(trustedProxies: Set(configuration.trustedProxies)) {
      [logger] in logger.warning("\($0)")
    }
  }

  /// The application: its routes, its guarded channel, and the store as its service (with
  /// the other instances' changes). `onListening` gets the bound port.
  public func buildApplication(onListening: @escaping @Sendable (Int) -> Void = { _ in })
    -> some ApplicationProtocol
  {
    let openFiles = FileLimit.raiseToHardLimit()
    logger.info(
      "open files: \(openFiles.soft) allowed (was \(openFiles.before), hard limit \(openFiles.hard))"
    )
    var application = Application(
      router: httpRouter(),
      server: serverBuilder(openFiles: openFiles.soft),
      // A room of attendees reconnects at once after a Wi-Fi drop; past Hummingbird's default
      // of 256 pending connections the rest would wait out TCP's one-second SYN retry. (The
      // kernel caps this at net.core.somaxconn.)
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), backlog: 4096),
      onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
      logger: logger)
    let store = rooms.main.store
    // PostgreSQL's schema, before the first socket. (The store closes with its service.)
    application.beforeServerStarts { try await store.prepare() }
    if configuration.publicURL == nil, !configuration.bindsLoopbackOnly {
      application.beforeServerStarts { [logger] in
        await Self.warnOfJoinAddresses(store: store, logger: logger)
      }
    }
    // Services stop in reverse order: the store after the server.
    application.addServices(StoreService(store: store, rooms: rooms))
    // Stops before the store closes: its rows go first.
    application.addServices(HeadCountService(headCount: rooms.main.headCount))
    return application
  }

  /// Sessions shown to a network without `--public-url`: their QR codes and join addresses
  /// follow each request's `Host` (or the trusted proxy's `X-Forwarded-Host`), which the
  /// operator may not mean. Said once at start, when there are sessions to join.
  package static func warnOfJoinAddresses(store: QuestionStore, logger: Logger) async {
    guard let sessions = try? await store.directory.sessions(), !sessions.isEmpty else { return }
    logger.warning(
      """
      \(sessions.count) session(s) and no --public-url: the join address and QR code each page \
      shows follow the request's Host header; give --public-url https://your.host to fix it
      """)
  }

  /// Serves until SIGINT/SIGTERM (then closes every socket with 1001 and returns) or until
  /// the task is cancelled.
  public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
    // The sockets' service comes after the application: services shut down in reverse
    // order, so the sockets are closed with 1001 while the server is still running.
    let group = ServiceGroup(
      configuration: .init(
        services: [
          .init(service: buildApplication(onListening: onListening)),
          .init(
            service: SocketsService(
              sockets: rooms.main.sockets, delay: configuration.shutdownDelay, logger: logger)),
        ],
        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
  }

  /// Every HTTP route, each from the controller that holds what it needs.
  private func httpRouter() -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    let main = rooms.main
    let sessions = SessionLookup(rooms: rooms, guesses: auth.codeGuesses, addresses: addresses)
    let join = JoinAddress(
      publicURL: configuration.publicURL, addresses: addresses,
      listening: "http://\(configuration.host):\(configuration.port)")
    let attendees = AttendeeController(
      main: main, sessions: sessions, join: join,
      maxQuestionLength: configuration.maxQuestionLength)
    let presenter = router.group()
    if configuration.adminToken != nil {
      LoginController(auth: auth, addresses: addresses, sessions: nil).addRoutes(to: router)
      presenter.add(middleware: PresenterGate(auth: auth, addresses: addresses, sessions: nil))
    }
    PresenterController(scope: .main(main), join: join).addRoutes(to: presenter)
    // Without an admin token, sessions are made from the server's own machine only.
    let admin =
      configuration.adminToken == nil
      ? presenter.group().add(middleware: LoopbackAdminGate(addresses: addresses)) : presenter
    SessionAdminController(rooms: rooms).addRoutes(to: admin)
    CredentialController(rooms: rooms, logger: logger).addRoutes(to: admin)
    attendees.addRoutes(to: router)
    SessionController(auth: auth, sessions: sessions, attendees: attendees, join: join)
      .addRoutes(to: router)
    ProbeController(store: main.store, sockets: main.sockets, logger: logger)
      .addRoutes(to: router)
    AssetController().addRoutes(to: router)
    MetricsController(metrics: metrics, store: main.store, sockets: main.sockets)
      .addRoutes(to: presenter)
    if configuration.mock != nil { ControlController(room: main).addRoutes(to: presenter) }
    return router
  }
}
