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

/// The hostile-input campaign's socket half, against the server's default limits: sizes at
/// the edge, text that draws nothing or too much, floods, and attendees that stop reading.
@Suite("qna-server: hostile input", .serialized)
struct HostileInputTests {
  /// A `newQuestion` of exactly `size` bytes (its content padded with x).
  static func newQuestion(ofSize size: Int, id: UUID) -> [UInt8] {
    let empty = WireCodec().encode(.newQuestion(NewQuestion(id: id, content: "")))
    let content = String(repeating: "x", count: size - empty.count)
    return WireCodec().encode(.newQuestion(NewQuestion(id: id, content: content)))
  }

  @Test(
    "Messages at the size limit", arguments: [(16_383, false), (16_384, false), (16_385, true)])
  func messagesAtTheLimit(size: Int, closes: Bool) async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    let message = Self.newQuestion(ofSize: size, id: id)
    #expect(message.count == size)
    try await attendee.client.send(binary: message)
    if closes {
      guard case .closed(let status) = try await attendee.disconnect() else {
        Issue.record("expected a close frame")
        return
      }
      #expect(status.code == .messageTooBig)
    } else {
      let response = try await attendee.response()
      #expect(!response.success && response.message.contains("too long"))
      try await attendee.ask("still here", as: id)
      #expect(try await attendee.response(occurrence: 1).success)
    }
    await attendee.close()
    await server.stop()
  }

  @Test(
    "Text that draws nothing or too much is refused for good",
    arguments: [
      ("\u{200B}\u{200D}\u{FEFF}\u{2060}", "The question is empty."),
      (" \u{200E}\u{2800} \u{3164}", "The question is empty."),
      ("a" + String(repeating: "\u{0301}", count: 7_000), "more than 16 marks"),
    ])
  func invisibleAndOverloadedText(content: String, reason: String) async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    try await attendee.ask(content, as: try await attendee.handshake())
    let response = try await attendee.response()
    #expect(!response.success && response.message.contains(reason), "\(response.message)")
    #expect(response.retryAfter == nil, "final")
    await attendee.close()
    await server.stop()
  }

  @Test func sixteenThousandCombiningMarksOnOneCharacterCloseWith1009() async throws {
    let server = try await ServerUnderTest()
    let attendee = try Attendee(server.socketURL)
    let zalgo = "a" + String(repeating: "\u{0301}", count: 16_000)
    try await attendee.ask(zalgo, as: try await attendee.handshake())
    guard case .closed(let status) = try await attendee.disconnect() else {
      Issue.record("expected a close frame")
      return
    }
    #expect(status.code == .messageTooBig, "32 KB of marks: over the message limit")
    #expect(try await server.http("GET", "/api/questions").body == "[]")
    await server.stop()
  }

  @Test func anAttendeeThatStopsReadingNeverHoldsUpTheAnswer() async throws {
    let server = try await ServerUnderTest { $0.mock = MockConfiguration() }
    // Reads at first, then never: one unread event pauses its reading, TCP does the rest.
    let stuck = WebSocketClient(
      url: try WebSocketURL(server.socketURL),
      configuration: ClientConfiguration(pingInterval: nil, eventBufferSize: 1))
    stuck.start()
    var events = stuck.events.makeAsyncIterator()
    var connection: UUID?
    while connection == nil, let event = await events.next() {
      if case .message(let message) = event,
        case .handshake(let body) = try WireCodec().decode(message.data)
      {
        connection = body.id
      }
    }
    let id = try #require(connection)
    try await stuck.send(
      binary: WireCodec().encode(
        .newQuestion(NewQuestion(id: id, content: "and then I stopped", token: UUID()))))
    var questionID: UUID?
    while questionID == nil, let event = await events.next() {
      if case .message(let message) = event,
        case .questionResponse(let body) = try WireCodec().decode(message.data)
      {
        questionID = body.id
      }
    }
    // Megabytes for it until the kernel's buffers are full and the writer waits.
    // Random letters: permessage-deflate (on by default) would shrink a megabyte of one letter
    // to a kilobyte, and nothing would ever queue.
    let megabyte = incompressibleText(count: 1 << 20 - 1024)
    var queued = 0
    for _ in 0..<40 where queued == 0 {
      _ = try await server.http("POST", "/control/send?id=\(id)", body: megabyte)
      // Still queued a moment later: the writer is stuck, not merely busy.
      try await Task.sleep(for: .milliseconds(300))
      let list = try await server.http("GET", "/control/connections").body
      let sockets = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]]
      queued = sockets?.first?["queued"] as? Int ?? 0
    }
    #expect(queued > 0, "the writer is stuck behind the attendee")
    let started = ContinuousClock.now
    let answer = try await server.http("POST", "/api/questions/\(try #require(questionID))/answer")
    let took = ContinuousClock.now - started
    #expect(answer.status == 200)
    #expect(took < .milliseconds(100), "the presenter waited \(took)")
    await stuck.close()
    await server.stop()
  }

  @Test func aFloodOfResendsAndResumesLeavesOtherAttendeesServed() async throws {
    let server = try await ServerUnderTest()
    let flooder = try Attendee(server.socketURL)
    let flooderID = try await flooder.handshake()
    let token = UUID()
    try await flooder.ask("once", as: flooderID, token: token)
    _ = try await flooder.response()
    let flood = Task {
      let resend = WireCodec().encode(
        .newQuestion(NewQuestion(id: flooderID, content: "once", token: token)))
      for _ in 0..<10_000 { try await flooder.client.send(binary: resend) }
      for _ in 0..<1_000 {
        let resume = Resume(id: flooderID, questions: (0..<400).map { _ in UUID() })
        try await flooder.client.send(binary: WireCodec().encode(.resume(resume)))
      }
    }
    try await Task.sleep(for: .milliseconds(300))
    let honest = try Attendee(server.socketURL)
    let honestID = try await honest.handshake()
    var latencies: [Duration] = []
    for index in 0..<15 {
      let started = ContinuousClock.now
      try await honest.ask("honest \(index)", as: honestID, token: UUID())
      _ = try await honest.response(occurrence: index)
      latencies.append(ContinuousClock.now - started)
      try await Task.sleep(for: .milliseconds(100))
    }
    let sorted = latencies.sorted()
    print("under a resend and resume flood: honest question p50 \(sorted[7]), max \(sorted[14])")
    #expect(sorted[14] < .seconds(1), "\(sorted)")
    #expect(
      try await server.http("GET", "/api/questions").body.components(separatedBy: "\"once\"")
        .count == 2, "the resends stored nothing")
    flood.cancel()
    await flooder.close()
    await honest.close()
    await server.stop()
  }

  @Test func aTypeHoldingANewlineAndAnEscapeIsEscapedInTheLog() async throws {
    let server = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    defer { server.stop() }
    let attendee = try Attendee(server.url)
    _ = try await attendee.handshake()
    try await attendee.send(raw: #"{"type":"evil\n\u001b[31mforged line"}"#)
    for _ in 0..<100 where !server.log.contains("forged line") {
      try await Task.sleep(for: .milliseconds(20))
    }
    #expect(server.log.contains(#"evil\n\e[31mforged line"#), "\(server.log)")
    #expect(!server.log.utf8.contains(0x1B), "no raw escape in the log")
    #expect(!server.log.contains("\nforged line"), "no forged line")
    await attendee.close()
  }

  @Test func aConnectionThatNeverFinishesItsRequestIsClosedAfterTheHeaderTimeout() async throws {
    // Half a second instead of the default 10 s, only to keep the test short; the default
    // is what ConnectionLoadTests meets.
    let server = try await ServerUnderTest { $0.headerTimeout = .milliseconds(500) }
    let port = server.port
    let started = ContinuousClock.now
    let closedAfter = await onOwnThread { () -> Duration? in
      guard let fd = loopbackConnection(port: port, sending: "GET / HTTP/1.1\r\nHost:")
      else { return nil }
      defer { close(fd) }
      var byte: UInt8 = 0
      return read(fd, &byte, 1) == 0 ? ContinuousClock.now - started : nil
    }
    let waited = try #require(closedAfter, "the server closed the connection")
    #expect(waited >= .milliseconds(450) && waited < .seconds(3), "\(waited)")
    // Blank lines are no request head, though a byte scanner would take them for its end.
    let blankAfter = await onOwnThread { () -> Bool in
      guard let fd = loopbackConnection(port: port, sending: "\r\n\r\n") else { return false }
      defer { close(fd) }
      var byte: UInt8 = 0
      return read(fd, &byte, 1) == 0
    }
    #expect(blankAfter, "closed too")
    // An attendee whose upgrade completed is not bound by it.
    let attendee = try Attendee(server.socketURL)
    let id = try await attendee.handshake()
    try await Task.sleep(for: .seconds(1))
    try await attendee.ask("still connected", as: id)
    #expect(try await attendee.response().success)
    await attendee.close()
    await server.stop()
  }

  /// Slowloris on a keep-alive connection: after one whole request and its response, the
  /// next head, begun and never finished, gets the same header timeout, with the server's
  /// default (10 s) — Hummingbird's idle timeout alone would keep it open for ever, each
  /// byte restarting it.
  @Test func aSecondRequestThatNeverEndsOnAKeptAliveConnectionIsClosedToo() async throws {
    let server = try await ServerUnderTest()
    let port = server.port
    let closedAfter = await onOwnThread { () -> Duration? in
      guard
        let fd = loopbackConnection(
          port: port, sending: "GET /api/questions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      else { return nil }
      defer { close(fd) }
      var response: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while !String(decoding: response, as: UTF8.self).hasSuffix("[]") {
        let count = read(fd, &chunk, chunk.count)
        guard count > 0 else { return nil }
        response += chunk[..<count]
      }
      let started = ContinuousClock.now
      // A byte every 2 s: each one would restart an idle timeout.
      for piece in ["GET / HTTP/1.1\r\n", "H", "o", "s", "t", ":", " ", "x"] {
        guard write(fd, piece, piece.utf8.count) > 0 else { break }
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&pollFD, 1, 2000) > 0 {
          var byte: UInt8 = 0
          if read(fd, &byte, 1) == 0 { return ContinuousClock.now - started }
        }
      }
      return nil
    }
    let waited = try #require(closedAfter, "the server closed the connection")
    #expect(waited >= .seconds(9.5) && waited < .seconds(13), "\(waited)")
    await server.stop()
  }

  @Test func aBurstOfAttendeesCannotSlipPastTheConnectionLimit() async throws {
    // A limit of 5 so that a burst of 30 overshoots it.
    let server = try await ServerUnderTest { $0.maxConnections = 5 }
    let attendees = try (0..<30).map { _ in try Attendee(server.socketURL) }
    var opened = 0
    var refused = 0
    for attendee in attendees {
      let event = try await attendee.waitFor("handshake or refusal") { event in
        switch event {
        case .message, .disconnected: true
        default: false
        }
      }
      if case .message = event { opened += 1 } else { refused += 1 }
    }
    #expect(opened == 5 && refused == 25, "opened \(opened), refused \(refused)")
    for attendee in attendees { await attendee.close() }
    await server.stop()
  }

  @Test func aSocketThatReadsNothingIsClosedAfterTheWriteStallTimeout() async throws {
    // One second instead of the default 30 s, to keep the test short; a send queue large
    // enough that only the stall, not the queue's bound, can close the socket.
    let server = try await ServerUnderTest {
      $0.mock = MockConfiguration()
      $0.writeStallTimeout = .seconds(1)
      $0.sendQueueLimit = 256 << 20
    }
    let stuck = WebSocketClient(
      url: try WebSocketURL(server.socketURL),
      configuration: ClientConfiguration(pingInterval: nil, eventBufferSize: 1))
    stuck.start()
    var events = stuck.events.makeAsyncIterator()
    _ = await events.next()
    // Random letters: permessage-deflate (on by default) would shrink a megabyte of one letter
    // to a kilobyte, and nothing would ever queue.
    let megabyte = incompressibleText(count: 1 << 20 - 1024)
    var open = true
    for _ in 0..<40 where open {
      _ = try await server.http("POST", "/control/send", body: megabyte)
      try await Task.sleep(for: .milliseconds(200))
      open = try await server.http("GET", "/control/connections").body != "[]"
    }
    #expect(!open, "the stuck socket was closed")
    await stuck.close()
    await server.stop()
  }
}

/// Letters and digits from a fixed seed: about 6 bits each, so deflate saves a quarter at most.
func incompressibleText(count: Int) -> String {
  var random = SplitMix64(seed: 7)
  let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  let bytes = (0..<count).map { _ in letters[Int(random.next() & 63)] }
  return String(decoding: bytes, as: UTF8.self)
}
