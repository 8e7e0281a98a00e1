import NIOCore
import NIOEmbedded
import QnAGuards
import Testing

@Suite("Connection ledger: bounded, and never closed to the presenter")
struct ConnectionLedgerTests {
  static func ledger(maxOpen: Int = 100, perAddress: Int = 3) -> ConnectionLedger {
    ConnectionLedger(
      limits: .init(
        maxOpen: maxOpen, maxHTTPConnectionsPerAddress: perAddress,
        exempt: { $0 == "127.0.0.1" || $0 == "10.9.9.9" }))
  }

  final class Token {}

  @Test func oneAddressHoldsFewHTTPConnectionsLoopbackAndProxiesAreExempt() {
    let ledger = Self.ledger()
    let tokens = (0..<10).map { _ in Token() }
    func admit(_ index: Int, from address: String) -> Bool {
      if case .admitted = ledger.admit(
        ObjectIdentifier(tokens[index]), channel: EmbeddedChannel(), address: address)
      {
        return true
      }
      return false
    }
    #expect((0..<3).allSatisfy { admit($0, from: "203.0.113.7") })
    #expect(!admit(3, from: "203.0.113.7"), "a fourth HTTP connection")
    ledger.upgraded(ObjectIdentifier(tokens[0]))
    #expect(admit(3, from: "203.0.113.7"), "one became a WebSocket: room again")
    #expect((4..<8).allSatisfy { admit($0, from: "127.0.0.1") }, "loopback is exempt")
    #expect((8..<10).allSatisfy { admit($0, from: "10.9.9.9") }, "a trusted proxy is exempt")
    #expect(ledger.openCount == 10)
    for token in tokens { ledger.closed(ObjectIdentifier(token)) }
    #expect(ledger.openCount == 0)
  }

  @Test func atTheLimitTheOldestHTTPConnectionMakesRoom() throws {
    let ledger = Self.ledger(maxOpen: 3, perAddress: 100)
    let tokens = (0..<5).map { _ in Token() }
    let channels = (0..<5).map { _ in EmbeddedChannel() }
    for channel in channels {
      try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    }
    for index in 0..<3 {
      _ = ledger.admit(ObjectIdentifier(tokens[index]), channel: channels[index], address: "x")
    }
    ledger.upgraded(ObjectIdentifier(tokens[0]))  // an attendee's socket
    guard
      case .admitted = ledger.admit(
        ObjectIdentifier(tokens[3]), channel: channels[3], address: "x")
    else {
      Issue.record("the newcomer was refused")
      return
    }
    #expect(!channels[1].isActive, "the oldest HTTP connection was closed")
    #expect(channels[0].isActive && channels[2].isActive, "the others are kept")
    ledger.closed(ObjectIdentifier(tokens[1]))
    for index in [0, 2, 3] { ledger.upgraded(ObjectIdentifier(tokens[index])) }
    guard
      case .refused = ledger.admit(
        ObjectIdentifier(tokens[4]), channel: channels[4], address: "x")
    else {
      Issue.record("admitted past the limit with nothing to evict")
      return
    }
  }
}
