import RFC6455
import TestSupport
import Testing

func openConnection(
  configuration: Configuration = Configuration(), firstFrames: [UInt8] = []
) throws -> ClientConnection {
  var connection = try ClientConnection(
    url: WebSocketURL("ws://127.0.0.1:8080/socket"), configuration: configuration,
    random: SplitMix64(seed: 7))
  _ = connection.takeOutbound()
  let events = connection.receive(
    switchingProtocols(for: connection.request) + firstFrames, now: .zero)
  guard case .opened = events.first else { fatalError("not opened: \(events)") }
  return connection
}

/// Decodes what the client wrote, as its server would.
func clientFrames(_ connection: inout ClientConnection) -> [FrameDecoder.Output] {
  decode(connection.takeOutbound().flatMap { $0 }, role: .server).outputs
}

@Suite("Client connection state machine (RFC 6455 §4, §5.5, §7)")
struct ClientConnectionTests {
  @Test func firstOutboundBytesAreTheHandshakeRequest() throws {
    var connection = try ClientConnection(
      url: WebSocketURL("ws://h:81/s"), random: SplitMix64(seed: 1))
    #expect(connection.state == .connecting)
    let request = connection.takeOutbound()
    #expect(request == [connection.request.bytes])
    #expect(throws: SendError.notOpen(.connecting)) { try connection.send(text: "too early") }
  }

  @Test func framesInTheSameReadAsThe101AreDelivered() throws {
    var connection = try ClientConnection(
      url: WebSocketURL("ws://h/socket"), random: SplitMix64(seed: 1))
    let handshake = utf8(#"{"type":"handshake","id":"1FC4044C-7E20-4332-9349-E4FDD69A10B3"}"#)
    let bytes = switchingProtocols(for: connection.request) + serverFrame(0x2, handshake)
    let events = connection.receive(bytes, now: .zero)
    #expect(events.count == 2)
    #expect(events.last == .message(.binary(handshake)))
    #expect(connection.state == .open)
  }

  @Test func handshakeSplitAcrossReadsOneByteAtATime() throws {
    var connection = try ClientConnection(url: WebSocketURL("ws://h/"), random: SplitMix64(seed: 1))
    let bytes = switchingProtocols(for: connection.request) + serverFrame(0x1, utf8("hi"))
    var events: [WebSocketEvent] = []
    for byte in bytes { events += connection.receive([byte], now: .zero) }
    #expect(events.count == 2 && events.last == .message(.text("hi")))
  }

  @Test func refusedHandshakeClosesWithTheHTTPStatus() throws {
    var connection = try ClientConnection(url: WebSocketURL("ws://h/"), random: SplitMix64(seed: 1))
    let events = connection.receive(
      utf8("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"), now: .zero)
    guard case .closed(let status) = events.first else {
      Issue.record("no close")
      return
    }
    #expect(status.code == .abnormalClosure && !status.wasClean)
    #expect(
      status.error
        == .handshake(
          .unexpectedStatus(code: 404, reason: "Not Found", headers: [("Content-Length", "0")])))
    #expect(connection.state == .closed)
    #expect(connection.receive(utf8("more"), now: .zero).isEmpty)
  }

  @Test func eofDuringHandshake() throws {
    var connection = try ClientConnection(url: WebSocketURL("ws://h/"), random: SplitMix64(seed: 1))
    _ = connection.receive(utf8("HTTP/1.1 101 Swi"), now: .zero)
    #expect(
      connection.transportClosed(now: .zero) == [
        .closed(
          CloseStatus(
            code: .abnormalClosure, reason: HandshakeError.connectionClosed.description,
            wasClean: false, closedByPeer: false, error: .handshake(.connectionClosed)))
      ])
  }

  @Test func pingIsAnsweredWithTheSamePayload() throws {
    var connection = try openConnection()
    let events = connection.receive(serverFrame(0x9, utf8("are you there")), now: .zero)
    #expect(events == [.ping(utf8("are you there"))])
    #expect(clientFrames(&connection) == [.pong(utf8("are you there"))])
    #expect(connection.receive(serverFrame(0xA, utf8("x")), now: .zero) == [.pong(utf8("x"))])
    #expect(clientFrames(&connection).isEmpty)
  }

  @Test func sendsAreMaskedAndKeepTheirOrder() throws {
    var connection = try openConnection()
    try connection.send(text: "one")
    try connection.send(binary: [1, 2, 3])
    try connection.ping(payload: [9])
    try connection.send(text: "ünïcödé")
    #expect(
      clientFrames(&connection) == [
        .message(.text("one")), .message(.binary([1, 2, 3])), .ping([9]),
        .message(.text("ünïcödé")),
      ])
    #expect(throws: SendError.controlPayloadTooLong(126)) {
      try connection.ping(payload: [UInt8](repeating: 0, count: 126))
    }
  }

  @Test func serverInitiatedCloseIsEchoedThenWaitsForTCP() throws {
    var connection = try openConnection()
    let events = connection.receive(
      serverFrame(0x8, [0x03, 0xE9] + utf8("restarting")), now: .seconds(1))
    #expect(events.isEmpty)
    #expect(connection.state == .closing)
    #expect(clientFrames(&connection) == [.close(CloseFrame(code: .goingAway))])
    #expect(connection.deadline == .seconds(6))
    #expect(throws: SendError.notOpen(.closing)) { try connection.send(text: "late") }
    let closed = connection.transportClosed(now: .seconds(2))
    #expect(
      closed == [
        .closed(
          CloseStatus(code: .goingAway, reason: "restarting", wasClean: true, closedByPeer: true))
      ])
    #expect(connection.state == .closed && connection.deadline == nil)
  }

  @Test func serverCloseWithoutCodeIsEchoedEmptyAndReportedAs1005() throws {
    var connection = try openConnection()
    _ = connection.receive(serverFrame(0x8, []), now: .zero)
    #expect(clientFrames(&connection) == [.close(CloseFrame(code: nil))])
    #expect(
      connection.transportClosed(now: .zero) == [
        .closed(CloseStatus(code: .noStatusReceived, wasClean: true, closedByPeer: true))
      ])
  }

  @Test func clientInitiatedCloseWaitsForTheEchoAndThenForTCP() throws {
    var connection = try openConnection(configuration: Configuration(closeTimeout: .seconds(3)))
    #expect(try connection.close(code: .normalClosure, reason: "bye", now: .seconds(10)).isEmpty)
    #expect(clientFrames(&connection) == [.close(CloseFrame(code: .normalClosure, reason: "bye"))])
    #expect(connection.deadline == .seconds(13))
    // Messages sent before the server saw our close are still delivered.
    #expect(
      connection.receive(serverFrame(0x1, utf8("last words")), now: .seconds(11)) == [
        .message(.text("last words"))
      ])
    #expect(connection.receive(serverFrame(0x8, [0x03, 0xE8]), now: .seconds(11)).isEmpty)
    #expect(clientFrames(&connection).isEmpty)  // no second close frame
    #expect(connection.deadline == .seconds(14))
    // The server does not close TCP: the deadline tells the transport to drop it.
    #expect(connection.handleDeadline(now: .seconds(13)).isEmpty)
    #expect(
      connection.handleDeadline(now: .seconds(14)) == [
        .closed(CloseStatus(code: .normalClosure, wasClean: true, closedByPeer: false))
      ])
  }

  @Test func unansweredCloseTimesOutAbnormally() throws {
    var connection = try openConnection()
    _ = try connection.close(now: .zero)
    let events = connection.handleDeadline(now: .seconds(5))
    #expect(
      events == [
        .closed(
          CloseStatus(
            code: .abnormalClosure, reason: "close handshake timed out", wasClean: false,
            closedByPeer: false, error: .closeTimeout))
      ])
  }

  @Test func closeWhileConnectingAbandonsTheAttempt() throws {
    var connection = try ClientConnection(url: WebSocketURL("ws://h/"), random: SplitMix64(seed: 1))
    let events = try connection.close(now: .zero)
    #expect(
      events == [.closed(CloseStatus(code: .abnormalClosure, wasClean: false, closedByPeer: false))]
    )
    #expect(try connection.close(now: .zero).isEmpty)
  }

  @Test func closeRefusesCodesThatMayNotBeSentAndLongReasons() throws {
    var connection = try openConnection()
    for code: UInt16 in [999, 1004, 1005, 1006, 1015, 2000, 5000] {
      #expect(throws: SendError.invalidCloseCode(code)) {
        try connection.close(code: CloseCode(code), now: .zero)
      }
    }
    #expect(throws: SendError.closeReasonTooLong(124)) {
      try connection.close(reason: String(repeating: "x", count: 124), now: .zero)
    }
    #expect(connection.state == .open)
  }

  @Test func protocolViolationSendsTheCloseCodeAndReadsNothingMore() throws {
    var connection = try openConnection()
    let events = connection.receive(
      serverFrame(0x1, utf8("fine")) + serverFrame(0x1, [0xFF]) + serverFrame(0x1, utf8("ignored")),
      now: .seconds(1))
    #expect(events == [.message(.text("fine"))])
    let sent = clientFrames(&connection)
    guard case .close(let frame) = sent.first else {
      Issue.record("no close frame")
      return
    }
    #expect(frame.code == .invalidPayloadData)
    #expect(connection.receive(serverFrame(0x8, [0x03, 0xEF]), now: .seconds(1)).isEmpty)
    let closed = connection.transportClosed(now: .seconds(2))
    guard case .closed(let status) = closed.first else {
      Issue.record("not closed")
      return
    }
    #expect(status.code == .invalidPayloadData && !status.wasClean)
    #expect(status.error == .protocolViolation(.invalidUTF8(messageOffset: 0)))
  }

  @Test func messageTooBigClosesWith1009() throws {
    var connection = try openConnection(configuration: Configuration(maxMessageSize: 10))
    _ = connection.receive(serverFrame(0x2, [UInt8](repeating: 0, count: 11)), now: .zero)
    guard case .close(let frame) = clientFrames(&connection).first else {
      Issue.record("no close")
      return
    }
    #expect(frame.code == .messageTooBig)
  }

  @Test func abruptEOFIsAbnormal() throws {
    var connection = try openConnection()
    #expect(
      connection.transportClosed(now: .zero) == [
        .closed(CloseStatus(code: .abnormalClosure, wasClean: false, closedByPeer: false))
      ])
    #expect(connection.transportClosed(now: .zero).isEmpty)
    #expect(throws: SendError.notOpen(.closed)) { try connection.send(binary: [1]) }
  }

  @Test func noPongAfterOurClose() throws {
    var connection = try openConnection()
    _ = try connection.close(now: .zero)
    _ = connection.takeOutbound()
    #expect(connection.receive(serverFrame(0x9, [1]), now: .zero) == [.ping([1])])
    #expect(!connection.hasOutbound)
  }

  @Test func repliesToMessagesBeforeAViolationGoOutBeforeTheCloseFrame() throws {
    var connection = try openConnection()
    let events = connection.receive(
      serverFrame(0x1, utf8("echo me")) + serverFrame(0x1, rsv: 2, utf8("bad")), now: .seconds(1))
    #expect(events == [.message(.text("echo me"))])
    #expect(connection.state == .open && connection.hasOutbound)
    try connection.send(text: "echo me")
    #expect(
      clientFrames(&connection) == [
        .message(.text("echo me")),
        .close(
          CloseFrame(code: .protocolError, reason: ProtocolError.reservedBitsSet(2).description)),
      ])
    #expect(connection.state == .closing && connection.deadline == .milliseconds(1500))
    #expect(throws: SendError.notOpen(.closing)) { try connection.send(text: "too late") }
  }

  @Test func bytesAfterAViolationAreNotRead() throws {
    var connection = try openConnection()
    _ = connection.receive(serverFrame(0x3, []), now: .zero)
    #expect(connection.receive(serverFrame(0x1, utf8("ignored")), now: .zero).isEmpty)
    guard case .close(let frame) = clientFrames(&connection).first else {
      Issue.record("no close")
      return
    }
    #expect(frame.code == .protocolError)
  }

  @Test func aCloseReasonNeedsACode() throws {
    var connection = try openConnection()
    #expect(throws: SendError.closeReasonWithoutCode) {
      try connection.close(code: nil, reason: "why", now: .zero)
    }
    #expect(try connection.close(code: nil, now: .zero).isEmpty)
    #expect(clientFrames(&connection) == [.close(CloseFrame(code: nil))])
  }
}
