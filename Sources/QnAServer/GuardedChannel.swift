import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 + WebSocket child channel, with the project's guards around it: the
/// `ConnectionGuard` first on raw bytes, and the `RequestGate` right behind the HTTP decoder,
/// where it sees every request head, the WebSocket upgrade's included.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
  typealias Value = Base.Value

  let base: Base
  let makeGuard: @Sendable () -> ConnectionGuard
  let makeGate: @Sendable () -> RequestGate

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    do {
      try channel.pipeline.syncOperations.addHandler(makeGuard(), position: .first)
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    let makeGate = self.makeGate
    return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
      let operations = channel.pipeline.syncOperations
      let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
      try operations.addHandler(makeGate(), position: .after(decoder))
      return value
    }
  }

  func handle(value: Value, logger: Logger) async {
    await base.handle(value: value, logger: logger)
  }
}
