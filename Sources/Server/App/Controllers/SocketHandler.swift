import Foundation
import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import QnAGuards
import QnARoom
import QnAStore

/// One attendee's or presenter's WebSocket, from its handshake message to its close, in the
/// room of the session it was opened for: the same for `/socket` and `/s/CODE/socket`.
struct SocketHandler: Sendable {
  let configuration: ServerConfiguration
  let logger: Logger
  /// Every socket's send queue together, against `sendQueueTotalLimit`.
  let sendBudget: SendBudget
  /// The compressors every socket shares; `nil`: `--legacy-broadcast`, or no deflate.
  let deflaters: CompressorPool?

  /// `session`: `nil` for the default one. The upgrade decided whether it is a presenter's;
  /// `arrival` is its ticket with the socket hub (`SocketHub.arrive`).
  func callAsFunction(
    _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
    _ context: WebSocketRouterContext<SocketRequestContext>, room: SessionRoom,
    session: SessionRecord?, isPresenter: Bool, address: String?, arrival: UUID
  ) async throws {
    let environment = room.environment
    let channel = context.requestContext.channel
    // The permessage-deflate the upgrade agreed to, as the extension's builder chose it.
    let agreed =
      deflaters == nil
      ? nil
      : DeflateAgreement.first(
        in: context.request.headers,
        requireClientNoContextTakeover: configuration.deflateNoContextTakeover)
    let output = try await self.output(
      on: channel, agreed: agreed, library: HummingbirdSocketWriter(outbound))
    let connection = SocketConnection(
      id: environment.makeID(), channel: channel, output: output,
      serial: room.hooks.sendDelay != nil, openedAt: environment.now(), isPresenter: isPresenter,
      session: session?.id ?? SessionRecord.defaultID, address: address,
      questionBudget: TokenBucket(
        burst: configuration.rateLimit, window: configuration.rateWindow,
        now: environment.uptime()),
      lookupBudget: TokenBucket(
        burst: configuration.lookupRate, window: .seconds(1), now: environment.uptime()),
      joinBudget: TokenBucket(
        burst: RoomJoins.joinBurst, window: RoomJoins.joinWindow, now: environment.uptime()),
      maxQueuedBytes: configuration.sendQueueLimit, allQueued: sendBudget,
      uptime: environment.uptime)
    defer { connection.finish() }
    switch room.sockets.add(connection, limit: configuration.maxConnections, arrival: arrival) {
    case .full:
      logger.warning("refused a socket: \(configuration.maxConnections) connections open")
      try await outbound.close(.init(codeNumber: 1013), reason: "too many connections")
      return
    case .shuttingDown:
      // Shutdown waits for this (its ticket is held until the connection ends).
      try await outbound.close(.goingAway, reason: "server shutting down")
      return
    case .added:
      break
    }
    defer {
      room.sockets.remove(connection.id)
      room.leave(connection.id)
    }
    // A session deleted while this socket was being upgraded: its sockets were closed before
    // this one was among them.
    if let session, (try? await room.store.directory.session(code: session.code)) == nil {
      try await outbound.close(.goingAway, reason: "the session was deleted")
      return
    }
    if configuration.mock != nil { try await installStallHandler(on: channel) }
    let passedOn = try await takeVotesOnLoop(
      on: channel, agreed: agreed, output: output, room: room, connection: connection)
    logger.info("socket \(connection.id) opened\(session.map { " in session \($0.code)" } ?? "")")
    room.send(.handshake(room.handshake(connection, session: session)), to: connection)
    do {
      try await InboundMessages(maxSize: configuration.maxMessageSize, logger: logger).forEach(
        inbound, outbound, id: "\(connection.id)"
      ) { message in
        switch message {
        case .text(let text): await room.receive(Array(text.utf8), from: connection)
        case .binary(let buffer):
          await room.receive(Array(buffer.readableBytesView), from: connection)
        }
        passedOn?.finished()
      }
      // Never back to the library with the close to come during shutdown: it would send
      // 1000, after which a client does not come back. (A no-op once a close went either way.)
      if room.sockets.isDraining {
        try? await outbound.close(.goingAway, reason: "server shutting down")
      }
      logger.info("socket \(connection.id) closed")
    } catch {
      // Rethrown: Hummingbird turns a message over the limit into close 1009.
      logger.info("socket \(connection.id) ended: \(error)")
      throw error
    }
  }

  /// Frames made once for every socket, written below the WebSocket library, compressed when
  /// this socket agreed to permessage-deflate; or, with `--legacy-broadcast`, every
  /// message through the library.
  private func output(
    on channel: any Channel, agreed: DeflateAgreement?, library: HummingbirdSocketWriter
  )
    async throws -> SocketConnection.Output
  {
    guard !configuration.legacyBroadcast else { return .library(library) }
    let framing: Framing
    if let deflaters, let agreed {
      framing = deflaters.framing(peerWindowBits: agreed.serverWindowBits)
    } else {
      framing = .plain
    }
    // Every handler in front of the writer must pass `channelWritabilityChanged` on: the
    // writer's copy of it is what bounds what a peer that stopped reading is sent.
    let raw = RawFrameWriter(eventLoop: channel.eventLoop)
    try await channel.eventLoop.submit {
      let encoder = try channel.pipeline.syncOperations.handler(type: WebSocketFrameEncoder.self)
      try channel.pipeline.syncOperations.addHandler(raw, position: .before(encoder))
      try channel.pipeline.syncOperations.addHandler(
        CloseFrameWatcher(raw), position: .after(encoder))
    }.get()
    return .frames(raw, framing, closer: library)
  }

  /// Votes read on the socket's event loop (`LoopVotes`), where its frames go straight to the
  /// channel; `nil` where they do not (`--legacy-broadcast`), or with `votesOnLoop` off. What
  /// the socket's task tells the handler, as it finishes each message passed on to it.
  private func takeVotesOnLoop(
    on channel: any Channel, agreed: DeflateAgreement?, output: SocketConnection.Output,
    room: SessionRoom, connection: SocketConnection
  ) async throws -> LoopVotes.PassedOn? {
    guard configuration.votesOnLoop, case .frames = output else { return nil }
    // Compressed votes are inflated there when each message stands alone (the default).
    let inflates = agreed?.clientNoContextTakeover == true
    let passedOn = LoopVotes.PassedOn()
    try await channel.eventLoop.submit {
      // Made on the loop that reads with it: the handler itself never leaves it.
      let handler = LoopVotes(
        room: room, connection: connection, inflates: inflates, passedOn: passedOn)
      let decoder = try channel.pipeline.syncOperations.handler(
        type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
      try channel.pipeline.syncOperations.addHandler(handler, position: .after(decoder))
    }.get()
    return passedOn
  }

  /// `--mock`'s `/control/stall` holds a socket's traffic with this handler.
  private func installStallHandler(on channel: any Channel) async throws {
    try await channel.eventLoop.submit {
      try channel.pipeline.syncOperations.addHandler(StallHandler(), position: .first)
    }.get()
  }
}

/// Hummingbird's outbound side as the room's socket writer.
struct HummingbirdSocketWriter: SocketWriter {
  let outbound: WebSocketOutboundWriter
  init(_ outbound: WebSocketOutboundWriter) { self.outbound = outbound }

  func write(_ bytes: ByteBuffer) async throws { try await outbound.write(.binary(bytes)) }
  func close(_ code: WebSocketErrorCode, reason: String) async throws {
    try await outbound.close(code, reason: reason)
  }
}
