import NIOCore
import NIOHTTP1

/// What the `RequestGate` tells the `ConnectionGuard` ahead of it, as outbound user events
/// (they flow toward the head of the pipeline, where the guard sits).
package enum ConnectionMilestone: Sendable {
  /// A whole request head arrived (as the HTTP parser sees it, not as raw bytes suggest).
  case requestHead
  /// The server answered 101: the connection is an attendee's WebSocket from now on.
  case upgraded
  /// A response ended with no request waiting: what comes next is a new request's head.
  case responseEnded
}

/// First in every connection's pipeline, on raw bytes, so that it stays through the WebSocket
/// upgrade: counts the connection in the ledger, closes it if no request head arrives within
/// `headerTimeout` of connecting, or of the first byte of a later request on a keep-alive
/// connection (slowloris; an idle keep-alive connection is Hummingbird's idle timeout's), and
/// closes it if it stays unwritable for
/// `writeStallTimeout` (a peer that stopped reading: its writes would wait for ever).
package final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  package typealias InboundIn = ByteBuffer
  package typealias InboundOut = ByteBuffer
  package typealias OutboundIn = ByteBuffer
  package typealias OutboundOut = ByteBuffer

  package struct Timeouts: Sendable {
    package var header: TimeAmount
    package var writeStall: TimeAmount

    package init(header: TimeAmount, writeStall: TimeAmount) {
      self.header = header
      self.writeStall = writeStall
    }
  }

  private let ledger: ConnectionLedger
  private let timeouts: Timeouts
  private let onClose: @Sendable (String) -> Void
  private var admitted = false
  /// Between a response and the next request's first byte, when no head timer runs.
  private var betweenRequests = false
  /// A WebSocket from the 101 on: no request heads to wait for any more.
  private var upgraded = false
  private var headerTimer: Scheduled<Void>?
  private var stallTimer: Scheduled<Void>?

  package init(
    ledger: ConnectionLedger, timeouts: Timeouts, onClose: @escaping @Sendable (String) -> Void
  ) {
    self.ledger = ledger
    self.timeouts = timeouts
    self.onClose = onClose
  }

  private var id: ObjectIdentifier { ObjectIdentifier(self) }

  package func channelActive(context: ChannelHandlerContext) {
    let channel = context.channel
    let address = channel.remoteAddress?.ipAddress ?? "unknown"
    switch ledger.admit(id, channel: channel, address: address) {
    case .refused(let reason):
      onClose("refused a connection: \(reason)")
      context.close(promise: nil)
      return
    case .admitted:
      admitted = true
    }
    headerTimer = closeLater(
      channel, after: timeouts.header, on: context.eventLoop,
      because: "closed a connection from \(address): no request head within \(timeouts.header)")
    context.fireChannelActive()
  }

  package func triggerUserOutboundEvent(
    context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?
  ) {
    guard let milestone = event as? ConnectionMilestone else {
      context.triggerUserOutboundEvent(event, promise: promise)
      return
    }
    switch milestone {
    case .requestHead:
      headerTimer?.cancel()
      headerTimer = nil
      betweenRequests = false
    case .upgraded:
      upgraded = true
      betweenRequests = false
      ledger.upgraded(id)
    case .responseEnded:
      // The 101's end may pass the gate on its way out: a WebSocket has no next request.
      betweenRequests = !upgraded
    }
    promise?.succeed()
  }

  package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if betweenRequests, headerTimer == nil {
      betweenRequests = false
      let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
      headerTimer = closeLater(
        context.channel, after: timeouts.header, on: context.eventLoop,
        because:
          "closed a connection from \(address): no request head within \(timeouts.header) of its first byte"
      )
    }
    context.fireChannelRead(data)
  }

  package func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable {
      stallTimer?.cancel()
      stallTimer = nil
    } else if stallTimer == nil {
      stallTimer = closeLater(
        context.channel, after: timeouts.writeStall, on: context.eventLoop,
        because: "closed a connection that read nothing for \(timeouts.writeStall)")
    }
    context.fireChannelWritabilityChanged()
  }

  private func closeLater(
    _ channel: any Channel, after delay: TimeAmount, on loop: any EventLoop, because: String
  ) -> Scheduled<Void> {
    let onClose = self.onClose
    return loop.scheduleTask(in: delay) {
      onClose(because)
      channel.close(promise: nil)
    }
  }

  package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    // Shutting down: a connection that never sent a request has nothing to finish.
    if event is ChannelShouldQuiesceEvent, headerTimer != nil {
      context.close(promise: nil)
    }
    context.fireUserInboundEventTriggered(event)
  }

  package func channelInactive(context: ChannelHandlerContext) {
    headerTimer?.cancel()
    stallTimer?.cancel()
    if admitted {
      admitted = false
      ledger.closed(id)
    }
    context.fireChannelInactive()
  }
}
