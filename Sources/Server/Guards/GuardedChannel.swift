import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Hummingbird's HTTP/1 + WebSocket child channel, with the project's guards around it: the
/// `ConnectionGuard` first on raw bytes, and the `RequestGate` right behind the HTTP decoder,
/// where it sees every request head, the WebSocket upgrade's included.
package struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
  package struct Value: ServerChildChannelValue {
    package let base: Base.Value
    /// Set by the gate when it refuses this connection's request.
    package let refusal: RefusalMark
    package var channel: any Channel { base.channel }
  }

  package let base: Base
  package let makeGuard: @Sendable () -> ConnectionGuard
  /// The gate for one connection; it marks `refusal` when it refuses.
  package let makeGate: @Sendable (_ refusal: RefusalMark) -> RequestGate

  package init(
    base: Base, makeGuard: @escaping @Sendable () -> ConnectionGuard,
    makeGate: @escaping @Sendable (_ refusal: RefusalMark) -> RequestGate
  ) {
    self.base = base
    self.makeGuard = makeGuard
    self.makeGate = makeGate
  }

  package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    do {
      try channel.pipeline.syncOperations.addHandler(makeGuard(), position: .first)
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    let makeGate = self.makeGate
    let refusal = RefusalMark()
    return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let operations = channel.pipeline.syncOperations
      let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try operations.addHandler(makeGate(refusal), position: .after(decoder))
      return Value(base: value, refusal: refusal)
    }
  }

  package func handle(value: Value, logger: Logger) async {
    var logger = logger
    logger.handler = RefusedUpgradeLogHandler(base: logger.handler, refusal: value.refusal)
    await base.handle(value: value.base, logger: logger)
  }
}

/// Whether the gate refused a connection's request.
package final class RefusalMark: Sendable {
  private let marked = Atomic(false)
  package func mark() { marked.store(true, ordering: .relaxed) }
  package var isMarked: Bool { marked.load(ordering: .relaxed) }
}

/// Hummingbird logs an error for an upgrade whose connection the gate refused and closed.
/// The gate has already said why, as a warning: no error for an operator to be woken by, so
/// that line goes to debug. Everything else passes unchanged.
package struct RefusedUpgradeLogHandler: LogHandler {
  package var base: any LogHandler
  package let refusal: RefusalMark

  package static let upgradeFailure = "Error handling upgrade result"

  package var logLevel: Logger.Level {
    get { base.logLevel }
    set { base.logLevel = newValue }
  }

  package var metadata: Logger.Metadata {
    get { base.metadata }
    set { base.metadata = newValue }
  }

  package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { base[metadataKey: key] }
    set { base[metadataKey: key] = newValue }
  }

  package func log(event: LogEvent) {
    var event = event
    if event.level == .error, event.message.description == Self.upgradeFailure,
      refusal.isMarked
    {
      event.level = .debug
      guard event.level >= base.logLevel else { return }
    }
    base.log(event: event)
  }
}
