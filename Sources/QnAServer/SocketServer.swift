import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore

/// One attendee's or presenter's WebSocket, from its handshake message to its close, on the
/// desk of the session it was opened for: the same for `/socket` and `/s/CODE/socket`.
struct SocketServer: Sendable {
  /// The default session's desk: its hub holds every socket of every session.
  let desk: QuestionDesk
  let configuration: ServerConfiguration
  let logger: Logger
  let sendBudget: SendBudget

  /// `session`: `nil` for the default one. Whoever upgraded the socket decided whether it is
  /// a presenter's (the request gate for `/socket`, the session's route for the others).
  func callAsFunction(
    _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
    _ context: WebSocketRouterContext<SocketRequestContext>, desk: QuestionDesk,
    session: SessionRecord?
  ) async throws {
    let environment = desk.environment
    let channel = context.requestContext.channel
    let request = context.request
    let isPresenter = PresenterSocketAuth.asksForPresenter(
      target: request.uri.string, hasAuthorization: request.headers[.authorization] != nil)
    let connection = SocketConnection(
      id: environment.makeID(), channel: channel, outbound: outbound,
      openedAt: environment.now(), isPresenter: isPresenter,
      session: session?.id ?? SessionRecord.defaultID,
      questionBudget: TokenBucket(
        burst: configuration.rateLimit, window: configuration.rateWindow,
        now: environment.uptime()),
      voteBudget: TokenBucket(
        burst: configuration.voteRateLimit, window: configuration.rateWindow,
        now: environment.uptime()),
      lookupBudget: TokenBucket(
        burst: configuration.lookupRate, window: .seconds(1), now: environment.uptime()),
      maxQueuedBytes: configuration.sendQueueLimit, allQueued: sendBudget,
      uptime: environment.uptime)
    defer { connection.finish() }
    switch desk.hub.add(connection, limit: configuration.maxConnections) {
    case .full:
      logger.warning("refused a socket: \(configuration.maxConnections) connections open")
      try await outbound.close(.init(codeNumber: 1013), reason: "too many connections")
      return
    case .shuttingDown:
      try await outbound.close(.goingAway, reason: "server shutting down")
      return
    case .added:
      break
    }
    defer {
      desk.hub.remove(connection.id)
      desk.room.leave(connection.id)
    }
    // A session deleted while this socket was being upgraded: its sockets were closed before
    // this one was among them.
    if let session, (try? await desk.store.session(code: session.code)) == nil {
      try await outbound.close(.goingAway, reason: "the session was deleted")
      return
    }
    if configuration.mock != nil { try await installStallHandler(on: channel) }
    logger.info("socket \(connection.id) opened\(session.map { " in session \($0.code)" } ?? "")")
    await desk.send(.handshake(desk.handshake(connection, session: session)), to: connection)
    do {
      for try await message in inbound.messages(maxSize: configuration.maxMessageSize) {
        let bytes: [UInt8]
        switch message {
        case .text(let text): bytes = Array(text.utf8)
        case .binary(let buffer): bytes = Array(buffer.readableBytesView)
        }
        // A compressed message is limited here, inflated: hummingbird checks one frame's
        // wire size, and a fragmented message's total, but not an inflated single frame.
        guard bytes.count <= configuration.maxMessageSize else {
          logger.info("socket \(connection.id): a message of \(bytes.count) bytes inflated")
          try await outbound.close(.messageTooLarge, reason: "message too big")
          return
        }
        await desk.receive(bytes, from: connection)
      }
      logger.info("socket \(connection.id) closed")
    } catch {
      // Rethrown: Hummingbird turns a message over the limit into close 1009.
      logger.info("socket \(connection.id) ended: \(error)")
      throw error
    }
  }

  private func installStallHandler(on channel: any Channel) async throws {
    try await channel.eventLoop.submit {
      try channel.pipeline.syncOperations.addHandler(StallHandler(), position: .first)
    }.get()
  }
}
