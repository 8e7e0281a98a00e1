import Testing
import WebSocketClient

@Suite("Session timers, as a value")
struct SessionTimersTests {
  static func timers() -> SessionTimers {
    SessionTimers(pingTimeout: .seconds(10), stallThreshold: .seconds(2))
  }

  @Test func theHandshakeMustAnswerInTime() {
    var timers = Self.timers()
    timers.handshakeStarted(now: .zero, timeout: .seconds(5))
    #expect(timers.nextDeadline(now: .zero, coreDeadline: nil, isOpen: false) == .seconds(5))
    let early = timers.due(now: .seconds(4), isOpen: false)
    #expect(early == [.checkCore])
    let late = timers.due(now: .seconds(5), isOpen: false)
    #expect(late == [.handshakeTimedOut])
    timers.opened(now: .seconds(1), pingInterval: nil)
    #expect(timers.nextDeadline(now: .seconds(1), coreDeadline: nil, isOpen: true) == nil)
  }

  @Test func pingsGoOutStallsAreReportedEverySecondAndTheTimeoutEndsIt() {
    var timers = Self.timers()
    timers.opened(now: .zero, pingInterval: .seconds(20))
    #expect(timers.nextDeadline(now: .zero, coreDeadline: nil, isOpen: true) == .seconds(20))
    let pinged = timers.due(now: .seconds(20), isOpen: true)
    guard case .sendPing(let payload) = pinged.last else {
      Issue.record("no ping: \(pinged)")
      return
    }
    // The stall threshold is crossed 2 s after the ping: that is the next wake-up.
    #expect(timers.nextDeadline(now: .seconds(20), coreDeadline: nil, isOpen: true) == .seconds(22))
    let stall = timers.due(now: .seconds(22), isOpen: true)
    #expect(stall.last == .reportStall(waited: .seconds(2)))
    #expect(timers.nextDeadline(now: .seconds(22), coreDeadline: nil, isOpen: true) == .seconds(23))
    let soon = timers.due(now: .milliseconds(22_500), isOpen: true)
    #expect(soon == [.checkCore], "once a second")
    let timedOut = timers.due(now: .seconds(30), isOpen: true)
    #expect(timedOut.last == .pingTimedOut(waited: .seconds(10)))
    // Answered in time instead: the round trip, and the next ping 20 s after the last.
    var answered = Self.timers()
    answered.opened(now: .zero, pingInterval: .seconds(20))
    _ = answered.due(now: .seconds(20), isOpen: true)
    let roundTrip = answered.pongReceived(payload, now: .milliseconds(20_040))
    #expect(roundTrip == .milliseconds(40))
    #expect(
      answered.nextDeadline(now: .milliseconds(20_040), coreDeadline: nil, isOpen: true)
        == .seconds(40))
  }

  @Test func whileReadingIsPausedThePingTimeoutIsHeldBackByOneTimeoutAtMost() {
    var timers = Self.timers()
    timers.opened(now: .zero, pingInterval: .seconds(20))
    _ = timers.due(now: .seconds(20), isOpen: true)
    let paused = timers.paused(now: .seconds(21))
    let pausedAgain = timers.paused(now: .seconds(22))
    #expect(paused && !pausedAgain, "already paused")
    #expect(timers.nextDeadline(now: .seconds(21), coreDeadline: nil, isOpen: true) == .seconds(40))
    let held = timers.due(now: .seconds(30), isOpen: true)
    #expect(held == [.checkCore], "held back, no stall")
    let given = timers.due(now: .seconds(40), isOpen: true)
    #expect(given.last == .pingTimedOut(waited: .seconds(20)))
    // Resumed before that: the pause no longer counts against the ping.
    var resumed = Self.timers()
    resumed.opened(now: .zero, pingInterval: .seconds(20))
    _ = resumed.due(now: .seconds(20), isOpen: true)
    _ = resumed.paused(now: .seconds(21))
    let wasPaused = resumed.resumed(now: .seconds(25))
    #expect(wasPaused)
    // 4 s of pause pushed the timeout from 30 s to 34 s.
    let notYet = resumed.due(now: .seconds(33), isOpen: true)
    #expect(!notYet.contains { if case .pingTimedOut = $0 { true } else { false } })
    let now = resumed.due(now: .seconds(34), isOpen: true)
    #expect(now.last == .pingTimedOut(waited: .seconds(10)))
  }

  @Test func aViolationWaitingForRepliesHoldsEverythingElseBack() {
    var timers = Self.timers()
    timers.opened(now: .zero, pingInterval: .seconds(1))
    let first = timers.awaitReplies(now: .zero, grace: .milliseconds(250))
    let second = timers.awaitReplies(now: .zero, grace: .milliseconds(250))
    #expect(first && !second, "one at a time")
    #expect(
      timers.nextDeadline(now: .zero, coreDeadline: .milliseconds(100), isOpen: true)
        == .milliseconds(250), "not even the core's deadline")
    let held = timers.due(now: .milliseconds(100), isOpen: true)
    #expect(held.isEmpty)
    let released = timers.due(now: .milliseconds(250), isOpen: true)
    #expect(released == [.checkCore])
    #expect(timers.repliesDeadline == nil)
  }

  @Test func theCoresDeadlineIsWokenFor() {
    let timers = Self.timers()
    #expect(
      timers.nextDeadline(now: .zero, coreDeadline: .seconds(5), isOpen: false) == .seconds(5))
  }
}
