import NIOCore
import NIOHTTP1

/// First in every connection's pipeline, on raw bytes, so that it stays through the WebSocket
/// upgrade: counts the connection in the ledger, closes it if its first request head is not
/// whole within `headerTimeout` (slowloris), and closes it if it stays unwritable for
/// `writeStallTimeout` (a peer that stopped reading: its writes would wait for ever).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  struct Timeouts: Sendable {
    var header: TimeAmount
    var writeStall: TimeAmount
  }

  private let ledger: ConnectionLedger
  private let timeouts: Timeouts
  private let onClose: @Sendable (String) -> Void
  private var admitted = false
  private var pending = true
  /// The last three bytes read while pending, so a "\r\n\r\n" split across reads is found.
  private var tail: [UInt8] = []
  private var headerTimer: Scheduled<Void>?
  private var stallTimer: Scheduled<Void>?

  init(ledger: ConnectionLedger, timeouts: Timeouts, onClose: @escaping @Sendable (String) -> Void)
  {
    self.ledger = ledger
    self.timeouts = timeouts
    self.onClose = onClose
  }

  func channelActive(context: ChannelHandlerContext) {
    let channel = context.channel
    let address = channel.remoteAddress?.ipAddress ?? "unknown"
    switch ledger.admit(ObjectIdentifier(self), channel: channel, address: address) {
    case .refused(let reason):
      onClose("refused a connection: \(reason)")
      context.close(promise: nil)
      return
    case .admitted:
      admitted = true
    }
    let onClose = self.onClose
    let timeout = timeouts.header
    headerTimer = context.eventLoop.scheduleTask(in: timeout) {
      onClose("closed a connection from \(address): no request head within \(timeout)")
      channel.close(promise: nil)
    }
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if pending { scanForHeadEnd(unwrapInboundIn(data)) }
    context.fireChannelRead(data)
  }

  private func scanForHeadEnd(_ buffer: ByteBuffer) {
    let bytes = tail + buffer.readableBytesView.suffix(min(buffer.readableBytes, 65536))
    let end: [UInt8] = [13, 10, 13, 10]
    var found = false
    if bytes.count >= 4 {
      for index in 0...(bytes.count - 4) where bytes[index] == 13 {
        if Array(bytes[index..<index + 4]) == end {
          found = true
          break
        }
      }
    }
    if found {
      pending = false
      tail = []
      headerTimer?.cancel()
      headerTimer = nil
      ledger.headComplete(ObjectIdentifier(self))
    } else {
      tail = Array(bytes.suffix(3))
    }
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable {
      stallTimer?.cancel()
      stallTimer = nil
    } else if stallTimer == nil {
      let channel = context.channel
      let onClose = self.onClose
      let timeout = timeouts.writeStall
      stallTimer = context.eventLoop.scheduleTask(in: timeout) {
        onClose("closed a connection that read nothing for \(timeout)")
        channel.close(promise: nil)
      }
    }
    context.fireChannelWritabilityChanged()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    // Shutting down: a connection that never sent a request has nothing to finish.
    if event is ChannelShouldQuiesceEvent, pending {
      context.close(promise: nil)
    }
    context.fireUserInboundEventTriggered(event)
  }

  func channelInactive(context: ChannelHandlerContext) {
    headerTimer?.cancel()
    stallTimer?.cancel()
    if admitted {
      admitted = false
      ledger.closed(ObjectIdentifier(self))
    }
    context.fireChannelInactive()
  }
}
