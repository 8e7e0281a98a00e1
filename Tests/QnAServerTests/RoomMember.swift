import Foundation
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import RFC6455
import TestSupport
import Testing
import WebSocketClient

/// An attendee in the room, over a real socket: joins after the handshake, votes.
struct RoomMember {
  let socket: Attendee
  let connection: UUID
  let attendee: UUID

  /// Connects to `path` (a session's socket, or the default one) and joins as `attendee`,
  /// catching up from `since` when given. Coming back as an attendee the server knows takes
  /// the `credential` it issued (`credential()` on the earlier member). `pays`: the join
  /// carries the work for the price the handshake names (extension `identityWork`), as the
  /// page and `qna` do; without, as a client that cannot pay.
  static func join(
    _ server: ServerUnderTest, as attendee: UUID, credential: UUID? = nil, since: Int? = nil,
    epoch: UUID? = nil, counts: Bool? = nil, path: String = "/socket",
    configuration: ClientConfiguration = ClientConfiguration(pingInterval: nil), pays: Bool = false,
    ticket: String? = nil
  ) async throws -> RoomMember {
    try await join(
      port: server.port, as: attendee, credential: credential, since: since, epoch: epoch,
      counts: counts, path: path, configuration: configuration, pays: pays, ticket: ticket)
  }

  /// The same, to a server on `port` (one in a process of its own).
  static func join(
    port: Int, as attendee: UUID, credential: UUID? = nil, since: Int? = nil,
    epoch: UUID? = nil, counts: Bool? = nil, path: String = "/socket",
    configuration: ClientConfiguration = ClientConfiguration(pingInterval: nil), pays: Bool = false,
    ticket: String? = nil
  ) async throws -> RoomMember {
    let socket = try Attendee("ws://127.0.0.1:\(port)\(path)", configuration: configuration)
    let handshake = try await socket.handshakeMessage()
    let connection = handshake.id
    let price = pays ? handshake.identityWork : nil
    try await socket.send(
      .join(
        Join(
          id: connection, attendee: attendee, credential: credential, since: since,
          epoch: epoch, counts: counts, work: price.map { Self.pay($0, on: connection) },
          ticket: ticket)))
    return RoomMember(socket: socket, connection: connection, attendee: attendee)
  }

  /// The nonces that pay `price` on `connection`.
  static func pay(_ price: IdentityWork, on connection: UUID) -> [UInt32] {
    (0..<price.count).map { price.solve(connection: connection, index: $0) ?? 0 }
  }

  /// The `index`-th `joined` this member got (extension `identity`).
  func joined(occurrence index: Int = 0) async throws -> Joined {
    let message = try await socket.waitForMessage("joined", occurrence: index) {
      if case .joined = $0 { true } else { false }
    }
    guard case .joined(let joined) = message else { throw ServerTestError.unexpected(message) }
    return joined
  }

  /// The credential the server issued this member.
  func credential() async throws -> UUID {
    let joined = try await joined()
    guard let credential = joined.credential else {
      throw ServerTestError.unexpected(.joined(joined))
    }
    return credential
  }

  func vote(_ question: UUID, up: Bool = true, token: UUID = UUID()) async throws {
    try await socket.send(.vote(Vote(id: connection, question: question, up: up, token: token)))
  }

  /// The `index`-th answer to a vote with `token`.
  func voteResponse(_ token: UUID, occurrence index: Int = 0) async throws -> VoteResponse {
    let message = try await socket.waitForMessage("voteResponse", occurrence: index) {
      if case .voteResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .voteResponse(let response) = message else {
      throw ServerTestError.unexpected(message)
    }
    return response
  }

  /// Every page of the snapshot at the first sequence number seen, once all have arrived.
  func snapshot() async throws -> [RoomSnapshot] {
    let first = try await socket.waitForMessage("room") {
      if case .room = $0 { true } else { false }
    }
    guard case .room(let page) = first else { throw ServerTestError.unexpected(first) }
    _ = try await socket.waitForMessage("every page", occurrence: page.parts - 1) {
      if case .room = $0 { true } else { false }
    }
    return rooms.filter { $0.seq == page.seq }
  }

  var rooms: [RoomSnapshot] {
    socket.messages.compactMap { if case .room(let page)? = try? $0.get() { page } else { nil } }
  }

  /// The `index`-th `roomOwn` (extension `counts`).
  func own(occurrence index: Int = 0) async throws -> RoomOwn {
    let message = try await socket.waitForMessage("roomOwn", occurrence: index) {
      if case .roomOwn = $0 { true } else { false }
    }
    guard case .roomOwn(let own) = message else { throw ServerTestError.unexpected(message) }
    return own
  }

  /// The largest message received so far, in bytes.
  var largestMessage: Int {
    socket.events.compactMap { event -> Int? in
      guard case .message(let message) = event else { return nil }
      return message.data.count
    }.max() ?? 0
  }

  var deltas: [RoomDelta] {
    socket.messages.compactMap {
      if case .roomDelta(let delta)? = try? $0.get() { delta } else { nil }
    }
  }

  /// Waits until a delta shows `question` with `votes`.
  @discardableResult
  func waitForVotes(_ question: UUID, _ votes: Int, seconds: Double = 5) async throws -> RoomDelta {
    let message = try await socket.waitForMessage("\(votes) votes", seconds: seconds) {
      if case .roomDelta(let delta) = $0 {
        delta.questions.contains { $0.id == question && $0.votes == votes }
      } else {
        false
      }
    }
    guard case .roomDelta(let delta) = message else { throw ServerTestError.unexpected(message) }
    return delta
  }
}

extension Attendee {
  func send(_ message: WireMessage) async throws {
    try await client.send(binary: WireCodec().encode(message))
  }

  /// Asks `content` with a token, and returns the stored question's id.
  func askedQuestion(_ content: String, as connection: UUID, token: UUID = UUID()) async throws
    -> UUID
  {
    try await ask(content, as: connection, token: token)
    let message = try await waitForMessage("created") {
      if case .questionResponse(let response) = $0 { response.token == token } else { false }
    }
    guard case .questionResponse(let response) = message, let id = response.id else {
      throw ServerTestError.unexpected(message)
    }
    return id
  }
}
