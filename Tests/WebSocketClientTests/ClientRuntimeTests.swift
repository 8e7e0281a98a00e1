import RFC6455
import Synchronization
import TestSupport
import Testing
import WebSocketClient

/// The runtime over an in-memory transport, with time driven by hand: keep-alive, timeouts
/// and reconnect backoff are checked without sleeping.
@Suite("Client runtime on a manual clock")
struct ClientRuntimeTests {
  let url = try! WebSocketURL("ws://qna.test:8080/socket")

  func makeClient(
    _ transport: PipeTransport, _ clock: ManualClock, reconnect: ReconnectPolicy? = nil,
    pingInterval: Duration? = .seconds(20), pingTimeout: Duration = .seconds(20),
    eventBufferSize: Int = ClientConfiguration().eventBufferSize
  ) -> WebSocketClient {
    WebSocketClient(
      url: url,
      configuration: ClientConfiguration(
        pingInterval: pingInterval, pingTimeout: pingTimeout, reconnect: reconnect,
        eventBufferSize: eventBufferSize),
      transport: transport, clock: clock, random: SystemRandomNumberGenerator())
  }

  /// Collects events in the background. With `stopAfter`, it stops reading (and so holds the
  /// client back) after the first event that matches, for good.
  final class Recorder: Sendable {
    private let events = Mutex<[ClientEvent]>([])
    init(_ client: WebSocketClient, stopAfter: (@Sendable (ClientEvent) -> Bool)? = nil) {
      Task {
        for await event in client.events {
          self.record(event)
          if stopAfter?(event) == true { break }
        }
      }
    }
    private func record(_ event: ClientEvent) { events.withLock { $0.append(event) } }
    var all: [ClientEvent] { events.withLock { $0 } }
    func contains(_ predicate: (ClientEvent) -> Bool) -> Bool { all.contains(where: predicate) }
  }

  /// Starts `client` and returns the in-memory server once the handshake request arrived.
  func startAndAwaitRequest(_ client: WebSocketClient, on transport: PipeTransport) async
    -> PipeServer
  {
    client.start()
    #expect(await eventually { transport.servers.first?.requestKey != nil })
    return transport.servers[0]
  }

  @Test func opensDeliversMessagesAndSendsInOrder() async throws {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock)
    let recorder = Recorder(client)
    let server = await startAndAwaitRequest(client, on: transport)
    server.accept(then: serverFrame(.binary, Array(#"{"type":"handshake"}"#.utf8)))
    #expect(
      await eventually {
        recorder.contains { $0 == .message(.binary(Array(#"{"type":"handshake"}"#.utf8))) }
      })
    #expect(
      recorder.all.prefix(2) == [.connecting(attempt: 1), .opened(subprotocol: nil, attempt: 1)])
    try await client.send(text: "one")
    try await client.send(binary: [2])
    try await client.send(text: "three")
    #expect(
      server.framesFromClient == [
        .message(.text("one")), .message(.binary([2])), .message(.text("three")),
      ])
    await closeGracefully(client, answeredBy: server)
    #expect(await eventually { recorder.contains { $0 == .disconnected(.userClosed) } })
  }

  @Test func aSilentServerIsDetectedWithinIntervalPlusTimeoutThenReconnected() async throws {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(
      transport, clock, reconnect: ReconnectPolicy(), pingInterval: .seconds(20),
      pingTimeout: .seconds(10))
    let recorder = Recorder(client)
    await startAndAwaitRequest(client, on: transport).accept()
    #expect(await eventually { recorder.contains { if case .opened = $0 { true } else { false } } })
    #expect(await eventually { clock.sleeperCount > 0 })
    clock.advance(by: .seconds(20))
    #expect(
      await eventually {
        transport.servers[0].framesFromClient.contains {
          if case .ping = $0 { true } else { false }
        }
      })
    // The server never answers: stalled reports come before the timeout ends the connection.
    for _ in 0..<10 {
      clock.advance(by: .seconds(1))
      for _ in 0..<50 { await Task.yield() }
    }
    #expect(
      await eventually {
        recorder.contains { $0 == .disconnected(.pingTimeout(waited: .seconds(10))) }
      })
    #expect(recorder.contains { if case .stalled = $0 { true } else { false } })
    #expect(transport.servers[0].clientClosed)
    // Then the backoff: the first retry comes within half a second.
    #expect(
      await eventually { recorder.contains { if case .reconnecting = $0 { true } else { false } } })
    guard
      case .reconnecting(let delay, let attempt) = recorder.all.last(where: {
        if case .reconnecting = $0 { true } else { false }
      })
    else { return }
    #expect(delay <= .milliseconds(500) && attempt == 2)
    clock.advance(by: delay)
    #expect(await eventually { transport.connectCount == 2 })
    #expect(await eventually { recorder.contains { $0 == .connecting(attempt: 2) } })
    await client.close()
  }

  @Test func answeredPingsReportTheRoundTrip() async throws {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock, pingInterval: .seconds(5))
    let recorder = Recorder(client)
    let server = await startAndAwaitRequest(client, on: transport)
    server.accept()
    #expect(await eventually { clock.sleeperCount > 0 && recorder.all.count >= 2 })
    clock.advance(by: .seconds(5))
    var ping: [UInt8]?
    #expect(
      await eventually {
        for case .ping(let payload) in server.framesFromClient { ping = payload }
        return ping != nil
      })
    clock.advance(by: .milliseconds(40))
    server.send(serverFrame(.pong, ping ?? []))
    #expect(await eventually { recorder.contains { $0 == .roundTrip(.milliseconds(40)) } })
    await closeGracefully(client, answeredBy: server)
  }

  @Test func handshakeTimeoutEndsTheAttempt() async {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock)
    let recorder = Recorder(client)
    client.start()
    #expect(
      await eventually { transport.servers.first?.requestKey != nil && clock.sleeperCount > 0 })
    clock.advance(by: .seconds(10))
    #expect(
      await eventually {
        recorder.contains { if case .disconnected(.timedOut) = $0 { true } else { false } }
      })
    #expect(await eventually { recorder.all.count == 2 })  // no reconnect without a policy
  }

  @Test func connectFailuresBackOffAndTheUserCloseStopsRetrying() async {
    let transport = PipeTransport()
    transport.plan(Array(repeating: .fail(.connectFailed("refused")), count: 10))
    let clock = ManualClock()
    let client = makeClient(transport, clock, reconnect: ReconnectPolicy())
    let recorder = Recorder(client)
    client.start()
    for attempt in 2...5 {
      #expect(
        await eventually {
          recorder.contains { if case .reconnecting(_, attempt) = $0 { true } else { false } }
        })
      #expect(await eventually { clock.sleeperCount > 0 })
      clock.advance(by: .seconds(30))
    }
    let delays = recorder.all.compactMap { event -> Duration? in
      if case .reconnecting(let delay, _) = event { delay } else { nil }
    }
    // A refused connection is the server gone for everyone: the outage's wider window.
    for (index, delay) in delays.enumerated() {
      #expect(delay <= min(.seconds(30), .seconds(5) * (1 << index)), "retry \(index + 1)")
    }
    await client.close()
    let countAtClose = transport.connectCount
    clock.advance(by: .seconds(60))
    for _ in 0..<200 { await Task.yield() }
    #expect(transport.connectCount == countAtClose)
  }

  @Test func sendingWhileDisconnectedIsATypedError() async {
    let client = makeClient(PipeTransport(), ManualClock())
    await #expect(throws: ClientError.notConnected) { try await client.send(text: "x") }
  }

  @Test func serverCloseWith1001IsReportedWithItsCode() async {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock)
    let recorder = Recorder(client)
    let server = await startAndAwaitRequest(client, on: transport)
    server.accept(then: serverFrame(.close, [0x03, 0xE9] + Array("restart".utf8)))
    #expect(
      await eventually { server.framesFromClient.contains(.close(CloseFrame(code: .goingAway))) })
    server.closeTCP()
    #expect(
      await eventually {
        recorder.contains {
          $0
            == .disconnected(
              .closed(
                CloseStatus(code: .goingAway, reason: "restart", wasClean: true, closedByPeer: true)
              ))
        }
      })
  }

  @Test func closeReturnsEvenWhenNobodyReadsTheEvents() async {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock, pingInterval: nil, eventBufferSize: 2)
    let server = await startAndAwaitRequest(client, on: transport)
    // Far more messages than the buffer holds, and no consumer at all.
    server.accept(then: (0..<10).flatMap { serverFrame(.text, Array("m\($0)".utf8)) })
    for _ in 0..<200 { await Task.yield() }
    await closeGracefully(client, answeredBy: server)
  }

  @Test func aSlowConsumerStopsTheReadingAndLosesNothing() async throws {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock, eventBufferSize: 4)
    let server = await startAndAwaitRequest(client, on: transport)
    server.accept()
    for index in 0..<50 { server.send(serverFrame(.text, Array("m\(index)".utf8))) }
    // Nobody reads the events: the client stops taking chunks a few past the buffer's size
    // (waiting for the pause itself: on a busy machine, nothing read yet looks the same).
    #expect(await eventually { server.clientPaused })
    #expect(server.unreadByClient >= 40)
    // A paused reader may have a pong waiting unread: keep-alive must not call the link dead.
    clock.advance(by: .seconds(60))
    var messages: [String] = []
    var iterator = client.events.makeAsyncIterator()
    while messages.count < 50, let event = await iterator.next() {
      switch event {
      case .message(let message): messages.append(message.text ?? "")
      case .disconnected(let why): Issue.record("disconnected while paused: \(why)")
      default: break
      }
    }
    #expect(messages == (0..<50).map { "m\($0)" })
    #expect(server.unreadByClient == 0)
    await closeGracefully(client, answeredBy: server)
  }

  /// A text frame with RSV2 set, which no extension allows.
  func badFrame() -> [UInt8] {
    var frame = serverFrame(.text, Array("bad".utf8))
    frame[0] |= 0x20
    return frame
  }

  /// Echoes every message, like `wsc --echo`, until the client ends.
  func echoEverything(_ client: WebSocketClient) -> Task<[ClientEvent], Never> {
    Task {
      var seen: [ClientEvent] = []
      for await event in client.events {
        seen.append(event)
        if case .message(let message) = event { try? await client.send(message) }
      }
      return seen
    }
  }

  @Test(arguments: [false, true])
  func repliesToMessagesBeforeAViolationGoOutBeforeItsClose(chopped: Bool) async {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock, pingInterval: nil)
    let echoes = echoEverything(client)
    let server = await startAndAwaitRequest(client, on: transport)
    let message = serverFrame(.text, Array("Hello, world!".utf8))
    let ping = serverFrame(.ping, [])
    if chopped {
      // One read per frame: the violation and the ping after it come in later reads.
      server.accept(then: message)
      server.send(badFrame())
      server.send(ping)
    } else {
      server.accept(then: message + badFrame() + ping)
    }
    let closed = await eventually {
      server.framesFromClient.contains { if case .close = $0 { true } else { false } }
    }
    #expect(closed)
    let frames = server.framesFromClient
    #expect(frames.first == .message(.text("Hello, world!")))
    guard case .close(let close)? = frames.last else {
      Issue.record("no close frame last: \(frames)")
      return
    }
    #expect(close.code == .protocolError && frames.count == 2)
    server.closeTCP()
    let seen = await echoes.value
    #expect(
      seen.contains {
        if case .disconnected(.closed(let status)) = $0 {
          status.code == .protocolError
        } else {
          false
        }
      })
  }

  @Test func aViolationIsFailedEvenIfTheConsumerNeverReplies() async {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock, pingInterval: nil)
    let server = await startAndAwaitRequest(client, on: transport)
    // Nobody reads the events: the close waits for the grace period, no longer.
    server.accept(then: serverFrame(.text, Array("unread".utf8)) + badFrame())
    #expect(await eventually { clock.sleeperDeadlines.contains(ClientSession.repliesGrace) })
    #expect(!server.framesFromClient.contains { if case .close = $0 { true } else { false } })
    clock.advance(by: ClientSession.repliesGrace)
    #expect(
      await eventually {
        server.framesFromClient.contains {
          if case .close(let close) = $0 { close.code == .protocolError } else { false }
        }
      })
    server.closeTCP()
    await client.close()
  }

  @Test func aStalledPingWhilePausedNeitherSpinsTheTimerNorWaitsForever() async {
    let transport = PipeTransport()
    let clock = ManualClock()
    let client = makeClient(transport, clock, pingInterval: .seconds(1), eventBufferSize: 2)
    // The consumer stops reading once told of the stall.
    let recorder = Recorder(client, stopAfter: { if case .stalled = $0 { true } else { false } })
    let server = await startAndAwaitRequest(client, on: transport)
    server.accept()
    #expect(await eventually { recorder.contains { if case .opened = $0 { true } else { false } } })
    // A ping goes unanswered long enough to be reported as a stall.
    for _ in 0..<6 {
      clock.advance(by: .seconds(1))
      for _ in 0..<20 { await Task.yield() }
    }
    #expect(
      await eventually { recorder.contains { if case .stalled = $0 { true } else { false } } })
    for index in 0..<50 { server.send(serverFrame(.text, Array("m\(index)".utf8))) }
    #expect(await eventually { server.unreadByClient > 0 })
    // The next stall report's time passes while paused: the timer must not re-arm in a loop.
    clock.advance(by: .seconds(2))
    let before = clock.sleepCalls
    for _ in 0..<500 { await Task.yield() }
    #expect(clock.sleepCalls - before < 10, "the timer re-armed \(clock.sleepCalls - before) times")
    // And the held-back timeout still ends a link that stays stuck (both ends writing, say).
    clock.advance(by: .seconds(40))
    #expect(await eventually { server.clientClosed })
    let frames = server.framesFromClient
    #expect(
      frames.contains {
        if case .close(let close) = $0 { close.code == .internalError } else { false }
      })
    await client.close()
  }

  @Test func reconnectNowDoesNotOverrideThePolicy() async {
    let transport = PipeTransport()
    transport.plan([.fail(.connectFailed("down"))])
    let clock = ManualClock()
    let client = makeClient(transport, clock, reconnect: ReconnectPolicy())
    let recorder = Recorder(client)
    client.start()
    #expect(
      await eventually { recorder.contains { if case .reconnecting = $0 { true } else { false } } })
    client.reconnectNow()  // skips this wait only
    let retried = await eventually {
      transport.servers.count == 2 && transport.servers[1].requestKey != nil
    }
    guard retried else {
      Issue.record("no second connection attempt")
      await client.close()
      return
    }
    // The server then refuses with 404: the policy says no retry, whatever was pressed before.
    transport.servers[1].send(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8))
    #expect(
      await eventually {
        recorder.contains {
          if case .disconnected(let why) = $0 { why.refusalStatus == 404 } else { false }
        }
      })
    for _ in 0..<500 { await Task.yield() }
    #expect(transport.connectCount == 2)
    await client.close()
  }
}
