import Foundation
import QnA
import TestSupport
import Testing

/// Extension `identityWork`: the hash and the price (against the vectors Python's hashlib
/// made, which the page's script checks too), and when the reducer pays.
@Suite("Identity work")
struct IdentityWorkTests {
  struct Vectors: Decodable {
    struct Digest: Decodable {
      var connection: UUID
      var nonce: UInt32
      var index: Int
      var digest: String
    }
    struct Solved: Decodable {
      var connection: UUID
      var price: IdentityWork
      var nonces: [UInt32]
    }
    var digests: [Digest]
    var solved: [Solved]
  }

  static let vectors: Vectors = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../Fixtures/identity-work.json").standardized
    // A missing or broken fixture fails every test below, by name.
    return (try? JSONDecoder().decode(Vectors.self, from: Data(contentsOf: file)))
      ?? Vectors(digests: [], solved: [])
  }()

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
  }

  @Test func theHashIsSHA256() {
    // FIPS 180-4's one-block example, and the longest one block holds.
    #expect(
      SHA256Block.digest(Array("abc".utf8)).map(Self.hex)
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256Block.digest([UInt8](repeating: 0x61, count: 55)).map(Self.hex)
        == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
    #expect(SHA256Block.digest([UInt8](repeating: 0, count: 56)) == nil)
    #expect(!Self.vectors.digests.isEmpty)
    for vector in Self.vectors.digests {
      let message = IdentityWork.message(
        connection: vector.connection, nonce: vector.nonce, index: vector.index)
      #expect(SHA256Block.digest(message).map(Self.hex) == vector.digest, "\(vector)")
    }
  }

  @Test func theLowestNoncesThatPayAreFoundAndProveThePrice() {
    #expect(!Self.vectors.solved.isEmpty)
    for vector in Self.vectors.solved {
      let found = (0..<vector.price.count).map {
        vector.price.solve(connection: vector.connection, index: $0)
      }
      #expect(found == vector.nonces)
      #expect(vector.price.isProved(by: vector.nonces, connection: vector.connection))
    }
  }

  @Test func workThatDoesNotPayIsRefused() throws {
    let vector = try #require(Self.vectors.solved.first)
    let price = vector.price
    var wrong = vector.nonces
    wrong[0] &+= 1
    #expect(!price.isProved(by: wrong, connection: vector.connection))
    #expect(!price.isProved(by: Array(vector.nonces.dropLast()), connection: vector.connection))
    #expect(!price.isProved(by: vector.nonces + [0], connection: vector.connection))
    #expect(!price.isProved(by: vector.nonces, connection: UUID()))
    // A price a hostile server names is not paid, nor checked.
    #expect(!IdentityWork(bits: 25, count: 16).isPayable)
    #expect(!IdentityWork(bits: 15, count: 65).isPayable)
    #expect(!IdentityWork(bits: 0, count: 16).isProved(by: [], connection: UUID()))
    #expect(!IdentityWork(bits: 19, count: 16).isPayable, "more than 2^22 hashes")
    #expect(IdentityWork.standard.isPayable && IdentityWork(bits: 18, count: 16).isPayable)
    #expect(IdentityWork.maxStandardBits == 18)
  }

  // MARK: The reducer

  typealias Room = StateDriver
  static let priced = Handshake(
    id: firstConnection, extensions: Room.roomExtensions + [ProtocolExtension.identityWork],
    identityWork: .standard)

  /// The first effect that puts something on the wire.
  static func firstSent(_ effects: [QnAEffect]) -> QnAEffect? {
    effects.first {
      switch $0 {
      case .report, .log: false
      default: true
      }
    }
  }

  @Test func aNewAttendeePaysBeforeItJoinsAndOneWithACredentialDoesNot() {
    var room = Self.connected()
    let effects = room.apply(.received(.handshake(Self.priced)))
    guard case .payAndJoin(let join, let price)? = Self.firstSent(effects) else {
      Issue.record("a new attendee pays first: \(effects)")
      return
    }
    #expect(join.attendee == Room.attendee && join.credential == nil && price == .standard)

    var known = Self.connected(credential: UUID())
    let free = known.apply(.received(.handshake(Self.priced)))
    guard case .join? = Self.firstSent(free) else {
      Issue.record("a credential is free: \(free)")
      return
    }
    // The server did not know it: its refusal's price is paid at once, once per connection.
    let refusal = Joined(id: firstConnection, message: "no", retryAfter: 30, work: .standard)
    guard case .payAndJoin? = Self.firstSent(known.apply(.received(.joined(refusal)))) else {
      Issue.record("the refusal's price is paid")
      return
    }
    let again = known.apply(.received(.joined(refusal)))
    #expect(!again.contains { if case .payAndJoin = $0 { true } else { false } })
  }

  @Test func aServerThatDoesNotAnnounceItOrNamesAHostilePriceIsNotPaid() {
    for handshake in [
      Handshake(id: firstConnection, extensions: Room.roomExtensions, identityWork: .standard),
      Handshake(
        id: firstConnection,
        extensions: Room.roomExtensions + [ProtocolExtension.identityWork],
        identityWork: IdentityWork(bits: 32, count: 64)),
    ] {
      var room = Self.connected()
      let effects = room.apply(.received(.handshake(handshake)))
      guard case .join? = Self.firstSent(effects) else {
        Issue.record("joined without paying: \(effects)")
        continue
      }
    }
  }

  /// A room driver for an attendee (with `credential`, if any) whose connection is up.
  static func connected(
    _ configuration: QnAConfiguration = QnAConfiguration(), credential: UUID? = nil
  ) -> Room {
    var room = Room(configuration: configuration)
    room.apply(.identity(attendee: Room.attendee, name: nil, credential: credential))
    room.apply(.connecting(attempt: 1))
    room.apply(.connected)
    return room
  }

  /// Extension `tickets`: a ticket goes with a join that has no credential, and pays for the
  /// identity (no work up front); a server without the extension is sent none, and a client
  /// with a credential sends it instead.
  @Test func aTicketJoinsWithoutPayingWhereTheServerTakesTickets() {
    var configuration = QnAConfiguration()
    configuration.ticket = "K7M2QX4P9HRTWZ3C"
    let ticketed = Handshake(
      id: firstConnection,
      extensions: Room.roomExtensions + [
        ProtocolExtension.identityWork, ProtocolExtension.tickets,
      ],
      identityWork: .standard)
    var room = Self.connected(configuration)
    guard case .join(let join)? = Self.firstSent(room.apply(.received(.handshake(ticketed))))
    else {
      Issue.record("a ticket pays: no work first")
      return
    }
    #expect(join.ticket == "K7M2QX4P9HRTWZ3C" && join.credential == nil)
    // Refused for good: the attendee is told, in the server's words.
    let refused = room.apply(
      .received(
        .joined(Joined(id: firstConnection, message: "That ticket is not one of this session's."))))
    #expect(
      refused.contains {
        if case .report(.notice(let notice)) = $0 { notice.kind == .error } else { false }
      })

    var old = Self.connected(configuration)
    guard
      case .payAndJoin(let unticketed, _)? = Self.firstSent(
        old.apply(.received(.handshake(Self.priced))))
    else {
      Issue.record("a server without tickets: the work is paid")
      return
    }
    #expect(unticketed.ticket == nil)

    var known = Self.connected(configuration, credential: UUID())
    guard case .join(let proving)? = Self.firstSent(known.apply(.received(.handshake(ticketed))))
    else {
      Issue.record("a credential joins as it is")
      return
    }
    #expect(proving.ticket == nil && proving.credential != nil)
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }

}
