import NIOCore
import NIOWebSocket
import QnA
import Synchronization
import ZlibCompression

/// Takes a socket's votes where its frames are read, on its event loop: a vote in one frame
/// (compressed or not) is read without `Codable` (`VoteWire`) and handed to the store's batch
/// there (`VoteIntake.take`); its answer goes out when the batch is written. No task wakes
/// for it, and it waits on no other socket's messages. Everything else, and any vote this
/// does not read at once, goes on to the WebSocket library and the socket's task as before
/// (`MessageRouter`), which reads and refuses as it always did.
///
/// A vote is taken here only when the socket's task has nothing of this socket's in hand
/// (`passedOn`), so that it is never answered before a message sent ahead of it, a join
/// above all, is. Sits after the library's frame decoder.
package final class LoopVotes: ChannelInboundHandler, RemovableChannelHandler {
  package typealias InboundIn = WebSocketFrame
  package typealias InboundOut = WebSocketFrame

  /// A frame larger than this is no plain vote: the library reads it.
  static let largestFrame = 1024

  /// Messages handed to the library that the socket's task has not finished with; the task
  /// calls `finished()` after each.
  package final class PassedOn: Sendable {
    private let count = Atomic<Int>(0)
    package init() {}
    fileprivate func add() { count.add(1, ordering: .relaxed) }
    fileprivate var isNone: Bool { count.load(ordering: .acquiring) == 0 }
    /// Never below nothing: a message the library read before this handler was there (sent
    /// before its client had the handshake) was not counted in.
    package func finished() {
      var current = count.load(ordering: .relaxed)
      while current > 0 {
        let (exchanged, original) = count.compareExchange(
          expected: current, desired: current - 1, ordering: .releasing)
        if exchanged { return }
        current = original
      }
    }
  }

  package let passedOn: PassedOn
  private let room: SessionRoom
  private let connection: SocketConnection
  /// The client compresses without context takeover, so any of its compressed messages can
  /// be inflated alone, here; `false` (no compression, or context kept): compressed frames go
  /// on to the library.
  private let inflates: Bool
  /// Inside a message of several frames: its frames all go on.
  private var inMessage = false
  /// After a close, or a frame the library fails the connection for: nothing more is taken
  /// here (the library reads no further either).
  private var stopped = false
  private var scratch: LoopScratch?

  package init(
    room: SessionRoom, connection: SocketConnection, inflates: Bool, passedOn: PassedOn = PassedOn()
  ) {
    self.room = room
    self.connection = connection
    self.inflates = inflates
    self.passedOn = passedOn
  }

  package func handlerAdded(context: ChannelHandlerContext) {
    scratch = LoopScratch.on(context.eventLoop)
  }

  package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .text, .binary, .continuation: break
    case .ping, .pong:
      // RFC 6455 §5.5: a control frame is whole, at most 125 bytes, without extension bits.
      if !frame.fin || frame.data.readableBytes > 125 || frame.rsv1 || frame.rsv2 || frame.rsv3 {
        stopped = true
      }
      context.fireChannelRead(data)
      return
    default:
      // A close, or an opcode RFC 6455 reserves: the end of what this socket is read for.
      stopped = true
      context.fireChannelRead(data)
      return
    }
    if !inMessage, frame.fin, let vote = vote(in: frame) {
      room.metrics.votesOnLoop.increment()
      VoteIntake(room: room).take(vote, from: connection)
      return
    }
    inMessage = !frame.fin
    if frame.fin { passedOn.add() }
    context.fireChannelRead(data)
  }

  /// The vote `frame` holds whole, when it is one this socket may have taken here now.
  private func vote(in frame: WebSocketFrame) -> Vote? {
    // As text or binary: the server reads a message's JSON either way (`qna` sends binary).
    guard frame.opcode == .text || frame.opcode == .binary, !stopped, !frame.rsv2, !frame.rsv3,
      !frame.rsv1 || inflates,
      frame.data.readableBytes <= Self.largestFrame, room.settings.extensions,
      passedOn.isNone, let scratch
    else { return nil }
    // Inflated within the message limit the library holds a message to (1009 past it).
    return scratch.read(frame, limit: min(Self.largestFrame, room.settings.maxMessageSize))
  }
}

/// What every `LoopVotes` of one event loop shares: an inflater and buffers, used on that
/// loop's thread alone, one frame at a time.
final class LoopScratch: @unchecked Sendable {
  // @unchecked: only its event loop's thread uses it (`on(_:)` hands each loop its own).
  private let inflater = ZlibResettingInflater()
  private var unmasked: [UInt8] = []
  private var inflated: [UInt8] = []

  private static let byLoop = PerLoop { _ in LoopScratch() }

  /// The event loop's own.
  static func on(_ loop: any EventLoop) -> LoopScratch { byLoop.on(loop) }

  /// The vote in `frame` (unmasked, inflated if compressed), or `nil`.
  func read(_ frame: WebSocketFrame, limit: Int) -> Vote? {
    unmasked.removeAll(keepingCapacity: true)
    frame.data.withUnsafeReadableBytes { bytes in
      unmasked.append(contentsOf: bytes)
    }
    if let key = frame.maskKey {
      for index in unmasked.indices { unmasked[index] ^= key[index & 3] }
    }
    guard frame.rsv1 else { return unmasked.withUnsafeBytes(VoteWire.vote(in:)) }
    do {
      try unmasked.withUnsafeBytes { bytes in
        try inflater.inflate(bytes, into: &inflated, limit: limit)
      }
    } catch {
      // Not a vote's few bytes: the library inflates it again and judges it.
      return nil
    }
    return inflated.withUnsafeBytes(VoteWire.vote(in:))
  }
}
