import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import QnARoom
import QnAStore
import Synchronization

/// `/socket` (the default session) and `/s/CODE/socket`. Each upgrade is judged once, here,
/// as the request gate judged it: a session that exists, and a presenter's socket only with
/// that scope's credentials. Refused upgrades go on to the HTTP route of the same path,
/// which says why (`SessionController`).
struct SocketController: Sendable {
  let configuration: ServerConfiguration
  let rooms: SessionRooms
  let auth: PresenterAuth
  let addresses: ClientAddress
  /// The compressors every socket shares; `nil`: `--legacy-broadcast`, or no deflate.
  let deflaters: CompressorPool?
  let logger: Logger

  func router() -> Router<SocketRequestContext> {
    let router = Router(context: SocketRequestContext.self)
    let handle = SocketHandler(
      configuration: configuration, logger: logger,
      sendBudget: SendBudget(limit: configuration.sendQueueTotalLimit), deflaters: deflaters)
    let rooms = self.rooms
    let auth = self.auth
    let addresses = self.addresses
    let sockets = rooms.main.sockets
    // Either route's socket, in the session, room and role its upgrade was judged for.
    let socket: WebSocketDataHandler<WebSocketRouterContext<SocketRequestContext>> = {
      inbound, outbound, context in
      guard let upgrade = context.requestContext.upgrade.get() else { return }
      try await handle(
        inbound, outbound, context, room: upgrade.room, session: upgrade.session,
        isPresenter: upgrade.isPresenter, address: upgrade.address, arrival: upgrade.arrival)
    }
    router.ws(
      "/socket",
      shouldUpgrade: { request, context in
        let presenter = PresenterAuth.asksForPresenter(request)
        if presenter, await !auth.admits(auth.offer(of: request, for: .admin), to: .admin) {
          return .dontUpgrade
        }
        guard let arrival = Self.arrival(on: context.channel, sockets) else { return .dontUpgrade }
        context.upgrade.set(
          session: nil, room: rooms.main, isPresenter: presenter,
          address: addresses.budgetKey(request, peer: context.channel.remoteAddress),
          arrival: arrival)
        return .upgrade([:])
      },
      onUpgrade: socket)
    router.ws(
      "/s/{code}/socket",
      shouldUpgrade: { request, context in
        guard let code = context.parameters.get("code"),
          let (session, room) = try await rooms.resolve(code)
        else { return .dontUpgrade }
        let presenter = PresenterAuth.asksForPresenter(request)
        let scope = PresenterAuth.Scope.session(session)
        if presenter, await !auth.admits(auth.offer(of: request, for: scope), to: scope) {
          return .dontUpgrade
        }
        guard let arrival = Self.arrival(on: context.channel, sockets) else { return .dontUpgrade }
        context.upgrade.set(
          session: session, room: room, isPresenter: presenter,
          address: addresses.budgetKey(request, peer: context.channel.remoteAddress),
          arrival: arrival)
        return .upgrade([:])
      },
      onUpgrade: socket)
    if configuration.mock != nil { addEchoRoute(to: router) }
    return router
  }

  /// Shutdown waits for this upgrade until its socket is in the hub (`SocketHub.arrive`):
  /// from the 101 on, the WebSocket library would close it with 1000 once the server stops.
  /// Once shutdown has closed every socket there is no upgrade: the connection is dropped,
  /// which its client retries (the refusal's 400 would tell it to give up).
  private static func arrival(on channel: any Channel, _ sockets: SocketHub) -> UUID? {
    guard let ticket = sockets.arrive(on: channel) else {
      channel.close(mode: .all, promise: nil)
      return nil
    }
    return ticket
  }

  /// `--mock` only: every message back as it came, through the same WebSocket layer as the
  /// attendees' sockets (the same limits, compression and checks), for Autobahn's fuzzing
  /// client to grade (`make conformance`).
  private func addEchoRoute(to router: Router<SocketRequestContext>) {
    let messages = InboundMessages(maxSize: configuration.maxMessageSize, logger: logger)
    let auth = self.auth
    router.ws(
      "/control/echo",
      // Behind the admin token, when there is one, as every control is.
      shouldUpgrade: { request, _ in
        await auth.admits(auth.offer(of: request, for: .admin), to: .admin)
          ? .upgrade([:]) : .dontUpgrade
      },
      onUpgrade: { inbound, outbound, _ in
        try await messages.forEach(inbound, outbound, id: "echo") { message in
          switch message {
          case .text(let text): try await outbound.write(.text(text))
          case .binary(let buffer): try await outbound.write(.binary(buffer))
          }
        }
      })
  }
}

/// The WebSocket route's context: Hummingbird's, plus the channel (for drops and stalls).
struct SocketRequestContext: RequestContext, WebSocketRequestContext {
  var coreContext: CoreRequestContextStorage
  let webSocket: WebSocketHandlerReference<SocketRequestContext>
  let channel: any Channel
  /// What the upgrade was judged for, handed from `shouldUpgrade` to the socket.
  let upgrade = JudgedUpgrade()

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    webSocket = .init()
    channel = source.channel
  }
}

/// A socket's session, room and role, set once the upgrade is allowed.
final class JudgedUpgrade: Sendable {
  struct Value: Sendable {
    var session: SessionRecord?
    var room: SessionRoom
    var isPresenter: Bool
    /// The client's address as per-address budgets count it (`nil`: not counted).
    var address: String?
    /// Its ticket with the socket hub until it is a socket there (`SocketHub.arrive`).
    var arrival: UUID
  }

  private let value = Mutex<Value?>(nil)
  func set(
    session: SessionRecord?, room: SessionRoom, isPresenter: Bool, address: String?,
    arrival: UUID
  ) {
    value.withLock {
      $0 = Value(
        session: session, room: room, isPresenter: isPresenter, address: address,
        arrival: arrival)
    }
  }
  func get() -> Value? { value.withLock { $0 } }
}
