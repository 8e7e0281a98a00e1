import RFC6455
import Testing
import WebSocketClient

@Suite("Keep-alive state machine")
struct KeepAliveTests {
  @Test func pingsEveryIntervalWithUniquePayloadsAndMeasuresRoundTrips() {
    var keepAlive = KeepAlive(interval: .seconds(20), timeout: .seconds(10), now: .zero)
    #expect(keepAlive.deadline == .seconds(20))
    #expect(keepAlive.poll(now: .seconds(19)) == nil)
    guard case .sendPing(let first) = keepAlive.poll(now: .seconds(20)) else {
      Issue.record("no ping")
      return
    }
    #expect(keepAlive.deadline == .seconds(30))
    #expect(keepAlive.pongReceived([9, 9], now: .seconds(21)) == nil)  // not ours
    #expect(keepAlive.pongReceived(first, now: .milliseconds(20_150)) == .milliseconds(150))
    #expect(keepAlive.lastRoundTrip == .milliseconds(150))
    #expect(keepAlive.deadline == .seconds(40))
    guard case .sendPing(let second) = keepAlive.poll(now: .seconds(40)) else {
      Issue.record("no second ping")
      return
    }
    #expect(first != second)
  }

  @Test func noPongWithinTheTimeoutMeansDead() {
    var keepAlive = KeepAlive(interval: .seconds(5), timeout: .seconds(3), now: .zero)
    _ = keepAlive.poll(now: .seconds(5))
    #expect(keepAlive.waitingForPong(now: .seconds(7)) == .seconds(2))
    #expect(keepAlive.poll(now: .seconds(7)) == nil)
    #expect(keepAlive.poll(now: .seconds(8)) == .timedOut(waited: .seconds(3)))
  }

  @Test func postponingMovesTheTimeoutBack() {
    var keepAlive = KeepAlive(interval: .seconds(5), timeout: .seconds(3), now: .zero)
    _ = keepAlive.poll(now: .seconds(5))
    keepAlive.postpone(by: .seconds(10))
    #expect(keepAlive.poll(now: .seconds(10)) == nil)
    #expect(keepAlive.deadline == .seconds(18))
  }
}

@Suite("Reconnect policy")
struct ReconnectPolicyTests {
  struct Counter: RandomNumberGenerator {
    var state: UInt64 = 1
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
  }

  @Test func fullJitterWithinExponentialCeilingsCappedAt30Seconds() {
    let policy = ReconnectPolicy()
    var random = Counter()
    for retry in 1...30 {
      let ceiling = min(Duration.seconds(30), .milliseconds(500) * (1 << min(retry - 1, 20)))
      for _ in 0..<50 {
        let delay = policy.delay(beforeRetry: retry, using: &random)
        #expect(delay >= .zero && delay <= ceiling, "retry \(retry): \(delay)")
      }
    }
    let firsts = (0..<200).map { _ in policy.delay(beforeRetry: 1, using: &random) }
    #expect(firsts.allSatisfy { $0 <= .milliseconds(500) })
    #expect(Set(firsts).count > 100)  // jittered, not a fixed step
  }

  @Test func aRoomThatLostItsServerComesBackOverSecondsNotAtOnce() {
    let policy = ReconnectPolicy()
    var random = Counter()
    let restart = Disconnect.closed(
      CloseStatus(code: .goingAway, wasClean: true, closedByPeer: true, error: nil))
    for outage in [restart, .connectFailed(.connectFailed("refused")), .refused(status: 503)] {
      let firsts = (0..<10_000).map { _ in
        policy.delay(beforeRetry: 1, after: outage, using: &random)
      }
      let inHalfASecond = firsts.filter { $0 <= .milliseconds(500) }.count
      #expect(inHalfASecond < 1_500, "\(outage): \(inHalfASecond) of 10,000 within 0.5 s")
      #expect(firsts.allSatisfy { $0 <= .seconds(5) })
    }
    // One attendee's own link failing: back at once.
    let mine = (0..<200).map { _ in
      policy.delay(beforeRetry: 1, after: .pingTimeout(waited: .seconds(20)), using: &random)
    }
    #expect(mine.allSatisfy { $0 <= .milliseconds(500) })
  }

  @Test func reconnectsOnlyWhenItCanHelp() {
    let policy = ReconnectPolicy()
    func closed(_ code: CloseCode, clean: Bool = true, error: WebSocketError? = nil) -> Disconnect {
      .closed(CloseStatus(code: code, wasClean: clean, closedByPeer: true, error: error))
    }
    let yes: [Disconnect] = [
      .connectFailed(.connectFailed("refused")), .timedOut(.connect(.seconds(10))),
      .pingTimeout(waited: .seconds(20)), .reconnectRequested,
      .refused(status: 500), .refused(status: 503), .refused(status: 429), .refused(status: 408),
      closed(.abnormalClosure, clean: false), closed(.goingAway), closed(.internalError),
      closed(.serviceRestart), closed(.tryAgainLater),
      // A captive portal: its HTML page, its redirect, its certificate.
      .refused(status: 200), .refused(status: 302), .refused(status: 511),
      .tlsFailed(.tls("bad certificate")),
      // A proxy that cannot reach the server now, or dropped us mid-answer.
      .connectFailed(.proxy("http://p:1", .refused(status: 502, reason: "Bad Gateway"))),
      .connectFailed(.proxy("socks5://p:1", .socksRefused(code: 5))),
      .connectFailed(.proxy("http://p:1", .closedEarly(hint: nil))),
    ]
    let no: [Disconnect] = [
      .userClosed, .refused(status: 401), .refused(status: 403), .refused(status: 404),
      .handshakeFailed(.invalidAccept(expected: "a", received: "b")),
      .invalidRequest(.invalidHeaderName("bad header")),
      closed(.normalClosure), closed(.policyViolation),
      closed(.protocolError, clean: false, error: .protocolViolation(.reservedOpcode(3))),
      // A proxy's refusal, like the server's: credentials or rules that would only repeat.
      .connectFailed(.proxy("http://p:1", .refused(status: 407, reason: ""))),
      .connectFailed(.proxy("http://p:1", .refused(status: 403, reason: ""))),
      .connectFailed(.proxy("socks5://p:1", .socksAuthenticationFailed)),
      .connectFailed(.proxy("socks5://p:1", .socksRefused(code: 2))),
    ]
    for disconnect in yes { #expect(policy.shouldReconnect(after: disconnect), "\(disconnect)") }
    for disconnect in no { #expect(!policy.shouldReconnect(after: disconnect), "\(disconnect)") }
  }
}

@Suite("Bounded event queue")
struct EventQueueTests {
  @Test func keepsOrderAndEndsAfterFinish() async {
    let queue = EventQueue<Int>(capacity: 4)
    await queue.push(1)
    await queue.push(contentsOf: [2, 3])
    queue.finish()
    #expect(await queue.next() == 1)
    #expect(await queue.next() == 2)
    #expect(await queue.next() == 3)
    #expect(await queue.next() == nil)
  }

  @Test func aFullQueueHoldsTheProducerUntilTheConsumerTakesOne() async {
    let queue = EventQueue<Int>(capacity: 2)
    await queue.push(contentsOf: [1, 2])
    #expect(queue.isFull)
    let producer = Task { await queue.push(3) }
    for _ in 0..<100 { await Task.yield() }
    #expect(queue.isFull)
    #expect(await queue.next() == 1)
    await producer.value
    #expect(await queue.next() == 2)
    #expect(await queue.next() == 3)
  }

  @Test func aCancelledConsumerStopsWaiting() async {
    let queue = EventQueue<Int>(capacity: 2)
    let consumer = Task { await queue.next() }
    for _ in 0..<100 { await Task.yield() }
    consumer.cancel()
    #expect(await consumer.value == nil)
  }

  @Test func aNewIteratorLosesNothing() async {
    let queue = EventQueue<Int>(capacity: 8)
    await queue.push(contentsOf: [1, 2, 3])
    #expect(await queue.next() == 1)
    queue.finish()
    #expect(await queue.next() == 2)
    #expect(await queue.next() == 3)
  }

  @Test func afterStopHoldingProducersAFullQueueNoLongerBlocks() async {
    let queue = EventQueue<Int>(capacity: 1)
    await queue.push(1)
    let producer = Task { await queue.push(2) }
    for _ in 0..<100 { await Task.yield() }
    queue.stopHoldingProducers()
    await producer.value
    await queue.push(3)
    #expect(await queue.next() == 1)
    #expect(await queue.next() == 2)
    #expect(await queue.next() == 3)
  }

  final class Box: Sendable {}

  /// The consumer takes a whole batch at once; what it has handed out must not stay alive in
  /// that batch (a 16 MiB message would, until the batch ran out).
  @Test func aHandedOutElementIsReferencedNowhereInTheQueue() async {
    let queue = EventQueue<Box>(capacity: 4)
    await queue.push(contentsOf: [Box(), Box(), Box()])
    weak let first = await queue.next()
    #expect(first == nil)
    #expect(await queue.next() != nil)
  }

  @Test func tryPushNeverWaits() async {
    let queue = EventQueue<Int>(capacity: 1)
    #expect(queue.tryPush(1))
    #expect(!queue.tryPush(2))
    #expect(await queue.next() == 1)
  }
}
