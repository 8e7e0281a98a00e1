import NIOCore
import NIOEmbedded
import RFC6455
import TestSupport
import Testing
import WebSocketClient

/// The two bounds a peer that floods and never reads runs into, each on its own.
@Suite("Bounded replies")
struct BackpressureUnitTests {
  @Test func manyPingsInOneReadAreAnsweredUpToABoundTheLastWithTheLatestPayload() throws {
    var connection = try ClientConnection(
      url: WebSocketURL("ws://h/"), random: SplitMix64(seed: 1))
    let request = connection.takeOutbound()
    #expect(request.count == 1)
    // Ten pings in one read (Autobahn 2.10 and 2.11): ten pongs, in order.
    let ten = (0..<10).flatMap { serverFrame(.ping, Array("t\($0)".utf8)) }
    _ = connection.receive(switchingProtocols(for: connection.request) + ten, now: .zero)
    #expect(
      connection.takeOutbound().map { decodeMasked($0).payload }
        == (0..<10).map { Array("t\($0)".utf8) })
    // A thousand: sixteen, the last answering the latest ping.
    let pings = (0..<1000).flatMap { serverFrame(.ping, Array("p\($0)".utf8)) }
    _ = connection.receive(pings, now: .zero)
    let replies = connection.takeOutbound()
    #expect(replies.count == ClientConnection.maxQueuedPongs, "a bound, not a thousand")
    let decoded = decodeMasked(replies[replies.count - 1])
    #expect(decoded.opcode == Opcode.pong.rawValue && decoded.payload == Array("p999".utf8))
    // The next read's pings get a pong of their own.
    _ = connection.receive(serverFrame(.ping, Array("again".utf8)), now: .zero)
    #expect(connection.takeOutbound().count == 1)
  }

  /// Counts the read requests that reach the head of the pipeline.
  final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = Any
    var reads = 0
    func read(context: ChannelHandlerContext) {
      reads += 1
      context.read()
    }
  }

  /// An embedded channel with a read counter at its head and the bridge behind it,
  /// delivering to `sink` (started, its first read asked for).
  static func bridged(to sink: any TransportSink) throws -> (
    channel: EmbeddedChannel, counter: ReadCounter, bridge: InboundBridge
  ) {
    let channel = EmbeddedChannel()
    let counter = ReadCounter()
    let bridge = InboundBridge()
    try channel.pipeline.syncOperations.addHandler(counter)
    try channel.pipeline.syncOperations.addHandler(bridge)
    bridge.start(sink, on: channel)
    channel.embeddedEventLoop.run()
    return (channel, counter, bridge)
  }

  final class Sink: TransportSink {
    func received(_ bytes: ByteBuffer) -> Bool { true }
    func readingResumes() -> Bool { true }
    func ended(_ failure: TransportError?) {}
  }

  @Test func aChannelThatCannotWriteIsNotReadUntilItCanAgain() throws {
    let (channel, counter, _) = try Self.bridged(to: Sink())
    let started = counter.reads
    #expect(started >= 1, "reading starts")
    channel.isWritable = false
    channel.pipeline.fireChannelWritabilityChanged()
    channel.read()
    #expect(counter.reads == started, "no read while our writes cannot drain")
    channel.isWritable = true
    channel.pipeline.fireChannelWritabilityChanged()
    #expect(counter.reads == started + 1, "reading resumes when they can")
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  final class RecordingSink: TransportSink, @unchecked Sendable {
    var seen: [String] = []
    /// What `received` answers: false holds reading back.
    var wantsMore = true
    func received(_ bytes: ByteBuffer) -> Bool {
      seen.append(String(buffer: bytes))
      return wantsMore
    }
    /// What `readingResumes` answers.
    var resumes = true
    func readingResumes() -> Bool {
      seen.append("resumes")
      return resumes
    }
    func ended(_ failure: TransportError?) { seen.append("end") }
  }

  /// The session's timers catch up in `readingResumes`, on the event loop, before anything
  /// more is read: the consumer that resumes never takes the lock the event loop holds.
  @Test func aHeldBackSinkIsToldOnTheEventLoopBeforeReadingResumes() throws {
    let sink = RecordingSink()
    sink.wantsMore = false
    let (channel, counter, bridge) = try Self.bridged(to: sink)
    channel.pipeline.fireChannelRead(ByteBuffer(string: "full"))
    let held = counter.reads
    channel.read()
    #expect(counter.reads == held, "no read while the sink is behind")
    bridge.resumeReading(on: channel)
    #expect(sink.seen == ["full"], "nothing happens off the event loop")
    channel.embeddedEventLoop.run()
    #expect(sink.seen == ["full", "resumes"])
    #expect(counter.reads == held + 1, "then it reads again")
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  /// A resume that came late (its consumer is behind again) or twice does not read: the sink
  /// says no, and reading stays held back.
  @Test func aSinkThatSaysNoStaysHeldBack() throws {
    let sink = RecordingSink()
    sink.wantsMore = false
    sink.resumes = false
    let (channel, counter, bridge) = try Self.bridged(to: sink)
    channel.pipeline.fireChannelRead(ByteBuffer(string: "full"))
    let held = counter.reads
    bridge.resumeReading(on: channel)
    channel.embeddedEventLoop.run()
    channel.read()
    #expect(sink.seen == ["full", "resumes"])
    #expect(counter.reads == held, "still held back")
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  /// NIO reads a socket to its end when the peer closes, asked or not: a captive portal that
  /// answers before our request, or a refusal that beats `start`, must still be read, and
  /// before the end (CI saw both end as "connection closed during the opening handshake").
  @Test func whatArrivesBeforeTheSinkIsDeliveredToItFirstThenTheEnd() throws {
    let channel = EmbeddedChannel()
    let bridge = InboundBridge()
    try channel.pipeline.syncOperations.addHandler(bridge)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    channel.pipeline.fireChannelRead(ByteBuffer(string: "HTTP/1.1 200 OK\r\n"))
    channel.pipeline.fireChannelRead(ByteBuffer(string: "\r\n<html>"))
    channel.pipeline.fireChannelInactive()
    channel.embeddedEventLoop.run()
    let sink = RecordingSink()
    bridge.start(sink, on: channel)
    channel.embeddedEventLoop.run()
    #expect(sink.seen == ["HTTP/1.1 200 OK\r\n\r\n<html>", "end"])
  }
}

/// Opcode and unmasked payload of one masked client frame (short payloads only).
func decodeMasked(_ frame: [UInt8]) -> (opcode: UInt8, payload: [UInt8]) {
  let length = Int(frame[1] & 0x7F)
  let key = Array(frame[2..<6])
  let payload = (0..<length).map { frame[6 + $0] ^ key[$0 % 4] }
  return (frame[0] & 0x0F, payload)
}
