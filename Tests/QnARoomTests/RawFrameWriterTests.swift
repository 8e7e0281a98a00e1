import Foundation
import NIOCore
import NIOEmbedded
import QnA
import QnARoom
import Testing

/// A socket whose frames go straight to its channel (`Output.frames`, the default): its
/// writer's copy of the channel's writability, which reaches it through the handlers in
/// front of it, decides whether the room counts the socket as not reading, and whether what
/// is written to it counts against its limit.
@Suite("The room's sockets: frames written straight to the channel")
struct RawFrameWriterTests {
  struct Fixture {
    let channel = EmbeddedChannel()
    let writer: RawFrameWriter
    let connection: SocketConnection
    let allQueued = SendBudget(limit: 1 << 20)

    /// `writable`: the channel's writability before the writer is added. A handler in front
    /// of the writer, as a server's guards are, passing events on as NIO's defaults do.
    init(limit: Int = 4096, writable: Bool = true) throws {
      writer = RawFrameWriter(eventLoop: channel.eventLoop)
      channel.isWritable = writable
      try channel.pipeline.syncOperations.addHandler(InFront())
      try channel.pipeline.syncOperations.addHandler(writer)
      try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
      connection = SocketConnection(
        id: UUID(), channel: channel, output: .frames(writer, .plain, closer: PeerInbox()),
        openedAt: Date(timeIntervalSinceReferenceDate: 0), address: nil,
        questionBudget: TokenBucket(burst: 1, window: .seconds(1), now: .zero),
        lookupBudget: TokenBucket(burst: 1, window: .seconds(1), now: .zero),
        joinBudget: TokenBucket(burst: 1, window: .seconds(1), now: .zero),
        maxQueuedBytes: limit, allQueued: allQueued, uptime: { .zero })
    }

    /// The channel over (or back under) its high-water mark, as NIO tells its pipeline.
    func writable(_ writable: Bool) {
      channel.isWritable = writable
      channel.pipeline.fireChannelWritabilityChanged()
    }

    func frame(_ size: Int) -> ByteBuffer { ByteBuffer(repeating: 0x2A, count: size) }
  }

  @Test func theWriterFollowsTheChannelAndTheRoomSeesACongestedSocket() throws {
    let fixture = try Fixture()
    #expect(fixture.writer.isWritable && !fixture.connection.isCongested)
    fixture.writable(false)
    #expect(!fixture.writer.isWritable)
    #expect(fixture.connection.isCongested, "a peer not reading: the room's deltas wait for it")
    fixture.writable(true)
    #expect(fixture.writer.isWritable && !fixture.connection.isCongested)
  }

  @Test func aWriterAddedToAnUnwritableChannelStartsUnwritable() throws {
    let fixture = try Fixture(writable: false)
    #expect(!fixture.writer.isWritable && fixture.connection.isCongested)
    fixture.writable(true)
    #expect(fixture.writer.isWritable && !fixture.connection.isCongested)
  }

  @Test func whatIsWrittenWhileUnwritableCountsAndPastTheLimitTheSocketIsDropped() throws {
    let fixture = try Fixture(limit: 4096)
    #expect(fixture.channel.isActive)
    fixture.connection.writeOnLoop(fixture.frame(1000))
    #expect(fixture.connection.backlog == 0, "the channel takes it freely")
    fixture.writable(false)
    for _ in 0..<4 { fixture.connection.writeOnLoop(fixture.frame(1000)) }
    #expect(fixture.connection.backlog == 4000)
    #expect(!fixture.allQueued.take(fixture.allQueued.limit - 3999), "everyone's budget too")
    // Back under the mark: the next write gives the count back, to the socket and to all.
    fixture.writable(true)
    fixture.connection.writeOnLoop(fixture.frame(10))
    #expect(fixture.connection.backlog == 0)
    #expect(fixture.allQueued.take(fixture.allQueued.limit))
    fixture.allQueued.release(fixture.allQueued.limit)
    // Over it again, and past the socket's limit: closed rather than queued.
    fixture.writable(false)
    for _ in 0..<5 { fixture.connection.writeOnLoop(fixture.frame(1000)) }
    #expect(fixture.connection.backlog == 4000)
    #expect(!fixture.channel.isActive, "dropped")
    var written = 0
    while let frame = try fixture.channel.readOutbound(as: ByteBuffer.self) {
      written += frame.readableBytes
    }
    #expect(written == 1000 + 4000 + 10 + 4000, "every frame it admitted, none after")
  }
}

/// A handler between the channel's head and the writer that leaves every event to NIO's
/// defaults, as the server's `ConnectionGuard` does with all but a few.
private final class InFront: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer
}
