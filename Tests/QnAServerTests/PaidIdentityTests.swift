import Foundation
import QnA
import QnARoom
import QnAServer
import TestSupport
import Testing
import WebSocketClient

/// Extension `identityWork`, on the server's defaults, from one forwarded address behind a
/// trusted proxy on loopback (loopback itself is not counted, so it pays nothing): a crowd
/// that pays is served at once, however many; work that does not pay, or was made for
/// another socket, buys nothing; a client that cannot pay has its small lane.
@Suite("qna-server: identities paid for with work")
struct PaidIdentityTests {
  static func server() async throws -> ServerUnderTest {
    try await ServerUnderTest { $0.trustedProxies = ["127.0.0.1"] }
  }

  static var venue: ClientConfiguration {
    var configuration = ClientConfiguration(pingInterval: nil)
    configuration.handshake.extraHeaders.append(name: "X-Forwarded-For", value: "203.0.113.9")
    return configuration
  }

  @Test func theHandshakeNamesThePriceOnlyWhereTheAddressIsCounted() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let venue = try Attendee("ws://127.0.0.1:\(server.port)/socket", configuration: Self.venue)
    let priced = try await venue.handshakeMessage()
    #expect(priced.identityWork == .standard)
    #expect(priced.extensions?.contains(ProtocolExtension.identityWork) == true)
    let local = try Attendee("ws://127.0.0.1:\(server.port)/socket")
    #expect(try await local.handshakeMessage().identityWork == nil)
    await venue.close()
    await local.close()
  }

  /// Three times the lane of clients that cannot pay (10 at once by default), all at once
  /// from one address: every one that pays is issued its identity at once, and votes.
  @Test func aCrowdThatPaysIsServedAtOnce() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let crowd = 3 * ServerConfiguration().newAttendeeRateLimit
    let question = try #require(try await HostileAttendeeTests.seed(server.store, 1).first)
    var members: [RoomMember] = []
    for _ in 0..<crowd {
      members.append(
        try await RoomMember.join(server, as: UUID(), configuration: Self.venue, pays: true))
    }
    for (index, member) in members.enumerated() {
      let joined = try await member.joined()
      #expect(joined.credential != nil && joined.attendee == member.attendee, "member \(index)")
      let token = UUID()
      try await member.vote(question, token: token)
      #expect(try await member.voteResponse(token).success, "member \(index)")
    }
    #expect(try await server.store.question(id: question)?.votes == crowd)
    for member in members { await member.socket.close() }
  }

  @Test func workThatDoesNotPayOrWasMadeForAnotherSocketBuysNothing() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let url = "ws://127.0.0.1:\(server.port)/socket"
    // One socket's honest work, sent on another socket: that socket's id is its challenge.
    let first = try Attendee(url, configuration: Self.venue)
    let firstID = try await first.handshake()
    let work = RoomMember.pay(.standard, on: firstID)
    let thief = try Attendee(url, configuration: Self.venue)
    let thiefID = try await thief.handshake()
    let thiefMember = RoomMember(socket: thief, connection: thiefID, attendee: UUID())
    let firstMember = RoomMember(socket: first, connection: firstID, attendee: UUID())
    try await thief.send(.join(Join(id: thiefID, attendee: UUID(), work: work)))
    let stolen = try await thiefMember.joined()
    #expect(stolen.credential == nil && stolen.work == .standard, "\(stolen)")
    #expect(stolen.message == RoomReplies.unpaidIdentity)
    // Nonces that do not pay, or too few.
    var wrong = work
    wrong[3] &+= 1
    try await thief.send(.join(Join(id: thiefID, attendee: UUID(), work: wrong)))
    #expect(try await thiefMember.joined(occurrence: 1).credential == nil)
    // The socket it was made for gets its identity with it, once: a second identity on
    // that socket is another attendee's join, refused.
    let attendee = UUID()
    try await first.send(.join(Join(id: firstID, attendee: attendee, work: work)))
    #expect(try await firstMember.joined().credential != nil)
    try await first.send(.join(Join(id: firstID, attendee: UUID(), work: work)))
    #expect(try await firstMember.joined(occurrence: 1).credential == nil)
    await first.close()
    await thief.close()
  }

  /// A client that sends no work (an older one, or one written without the extension) has
  /// the address's lane: 10 at once on the defaults, then it is told when to ask again, and
  /// the price that would have bought one now.
  @Test func aClientThatCannotPayHasASmallLaneOfItsOwn() async throws {
    let server = try await Self.server()
    defer { Task { await server.stop() } }
    let lane = ServerConfiguration().newAttendeeRateLimit
    var members: [RoomMember] = []
    for _ in 0..<lane {
      let member = try await RoomMember.join(server, as: UUID(), configuration: Self.venue)
      #expect(try await member.joined().credential != nil)
      members.append(member)
    }
    let late = try await RoomMember.join(server, as: UUID(), configuration: Self.venue)
    let refusal = try await late.joined()
    #expect(refusal.credential == nil && (refusal.retryAfter ?? 0) > 0)
    #expect(refusal.work == .standard)
    // Paying on the next socket is served although the lane is spent.
    let paying = try await RoomMember.join(
      server, as: UUID(), configuration: Self.venue, pays: true)
    #expect(try await paying.joined().credential != nil)
    for member in members + [late, paying] { await member.socket.close() }
  }
}
