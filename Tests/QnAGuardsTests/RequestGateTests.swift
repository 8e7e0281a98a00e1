import NIOCore
import NIOEmbedded
import NIOHTTP1
import QnAGuards
import Synchronization
import Testing

/// The request gate on NIO's testing channel: what it refuses, what it holds while an
/// upgrade is judged, and what it lets through, with no socket.
@Suite("Request gate, on a testing channel")
struct RequestGateTests {
  /// A channel with only the gate, and the refusals it reported.
  static func channel(
    policy: RequestPolicy = RequestPolicy(loopbackOnly: true),
    judge: UpgradeJudge? = nil
  ) async throws -> (NIOAsyncTestingChannel, Refusals) {
    let channel = NIOAsyncTestingChannel()
    let refusals = Refusals()
    try await channel.testingEventLoop.executeInContext {
      try channel.pipeline.syncOperations.addHandler(
        RequestGate(policy: policy, judgeUpgrade: judge) { status, _, _ in
          refusals.statuses.withLock { $0.append(status.code) }
        })
    }
    return (channel, refusals)
  }

  static func head(
    _ uri: String = "/", method: HTTPMethod = .GET, headers: [(String, String)]
  ) -> HTTPServerRequestPart {
    .head(HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: .init(headers)))
  }

  final class Refusals: Sendable {
    let statuses = Mutex<[UInt]>([])
  }

  static let upgrade = [
    ("Host", "127.0.0.1:8080"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
  ]

  /// The status of the response the gate wrote.
  static func status(of channel: NIOAsyncTestingChannel) async throws -> UInt {
    let part = try await channel.waitForOutboundWrite(as: HTTPServerResponsePart.self)
    guard case .head(let head) = part else { return 0 }
    return head.status.code
  }

  @Test func aRequestWithoutOneHostIsRefusedWith400AndTheConnectionCloses() async throws {
    let (channel, refusals) = try await Self.channel()
    try await channel.writeInbound(Self.head(headers: []))
    #expect(try await Self.status(of: channel) == 400)
    #expect(refusals.statuses.withLock { $0 } == [400])
    try await channel.closeFuture.get()
  }

  @Test func aForeignHostOnALoopbackServerIsMisdirected() async throws {
    let (channel, _) = try await Self.channel()
    try await channel.writeInbound(Self.head(headers: [("Host", "evil.example")]))
    #expect(try await Self.status(of: channel) == 421)
  }

  @Test func aRequestTheParserCannotReadGets400() async throws {
    let (channel, refusals) = try await Self.channel()
    channel.pipeline.fireErrorCaught(HTTPParserError.invalidCharactersUsed)
    #expect(try await Self.status(of: channel) == 400)
    #expect(refusals.statuses.withLock { $0 } == [400])
    try await channel.closeFuture.get()
  }

  @Test func aCrossSiteWriteIsForbiddenAReadPasses() async throws {
    let (channel, _) = try await Self.channel()
    try await channel.writeInbound(Self.head(headers: [("Host", "localhost:8080")]))
    let passed = try await channel.waitForInboundWrite(as: HTTPServerRequestPart.self)
    guard case .head = passed else {
      Issue.record("the read did not pass")
      return
    }
    let (other, _) = try await Self.channel()
    try await other.writeInbound(
      Self.head(
        method: .POST, headers: [("Host", "localhost:8080"), ("Origin", "https://evil.example")]))
    #expect(try await Self.status(of: other) == 403)
  }

  @Test func anUpgradeTheJudgeRefusesGetsItsStatusAndOthersAreNotAsked() async throws {
    let asked = Refusals()
    let (channel, _) = try await Self.channel { _, _ in
      asked.statuses.withLock { $0.append(0) }
      return .decided(.refuse(.unauthorized, "no"))
    }
    try await channel.writeInbound(Self.head(headers: [("Host", "127.0.0.1")]))
    _ = try await channel.waitForInboundWrite(as: HTTPServerRequestPart.self)
    #expect(asked.statuses.withLock { $0 }.isEmpty, "a plain request is not an upgrade")
    let (upgrading, _) = try await Self.channel { _, _ in
      .decided(.refuse(.unauthorized, "no"))
    }
    try await upgrading.writeInbound(Self.head("/socket?role=presenter", headers: Self.upgrade))
    #expect(try await Self.status(of: upgrading) == 401)
  }

  @Test func anUpgradeAwaitingItsVerdictIsHeldThenLetThrough() async throws {
    let verdict = AsyncStream<UpgradeVerdict>.makeStream()
    let (channel, _) = try await Self.channel { _, _ in
      .pending {
        for await decided in verdict.stream { return decided }
        return .pass
      }
    }
    try await channel.writeInbound(Self.head("/s/ABC123/socket", headers: Self.upgrade))
    try await channel.writeInbound(HTTPServerRequestPart.end(nil))
    #expect(try await channel.readInbound(as: HTTPServerRequestPart.self) == nil, "held")
    verdict.continuation.yield(.pass)
    let head = try await channel.waitForInboundWrite(as: HTTPServerRequestPart.self)
    let end = try await channel.waitForInboundWrite(as: HTTPServerRequestPart.self)
    guard case .head = head, case .end = end else {
      Issue.record("the held request came out of order")
      return
    }
  }
}
