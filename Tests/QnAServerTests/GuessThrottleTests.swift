import Foundation
import QnAServer
import Synchronization
import Testing

/// The guessing budget on its own clock: a burst of wrong guesses, then one per interval;
/// past it, the same answer for a right guess and a wrong one, and a wrong one not counted.
@Suite("GuessThrottle: a budget of wrong guesses per address")
struct GuessThrottleTests {
  final class Clock: Sendable {
    let now = Mutex<Duration>(.seconds(100))
    func advance(_ by: Duration) { now.withLock { $0 += by } }
  }

  @Test func aBurstThenOnePerIntervalAndRightGuessesAnsweredAsWrongOnesPastIt() async {
    let clock = Clock()
    let throttle = GuessThrottle(uptime: { clock.now.withLock { $0 } })
    let address = "192.0.2.1"
    for _ in 0..<GuessThrottle.burst {
      #expect(throttle.overRate(address) == nil, "a right guess is judged")
      #expect(await throttle.wrongGuess(address) == nil, "counted and refused as wrong")
    }
    // Over: a right guess and a wrong one both wait the interval.
    #expect(throttle.overRate(address) == GuessThrottle.interval)
    #expect(await throttle.wrongGuess(address) == GuessThrottle.interval)
    // A refused guess is not counted: after one interval, one guess more, not none.
    clock.advance(GuessThrottle.interval)
    #expect(throttle.overRate(address) == nil)
    #expect(await throttle.wrongGuess(address) == nil)
    #expect(await throttle.wrongGuess(address) == GuessThrottle.interval)
    // Another address has its own budget.
    #expect(await throttle.wrongGuess("192.0.2.2") == nil)
    // The budget refills whole.
    clock.advance(GuessThrottle.interval * GuessThrottle.burst)
    for _ in 0..<GuessThrottle.burst { #expect(await throttle.wrongGuess(address) == nil) }
    #expect(await throttle.wrongGuess(address) != nil)
    // The admin token forgets it.
    throttle.forget(address)
    #expect(throttle.overRate(address) == nil)
  }

  @Test func aThousandGuessesAtOnceAreJudgedNoMoreThanTheBurst() async {
    let clock = Clock()
    let throttle = GuessThrottle(uptime: { clock.now.withLock { $0 } })
    let judged = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<1000 { group.addTask { await throttle.wrongGuess("198.51.100.9") == nil } }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(judged == GuessThrottle.burst)
  }

  @Test func theTableStaysBoundedAndForgetsTheLeastIndebtedFirst() async {
    let clock = Clock()
    let throttle = GuessThrottle(uptime: { clock.now.withLock { $0 } })
    for _ in 0...GuessThrottle.burst { _ = await throttle.wrongGuess("192.0.2.1") }
    for index in 0..<(GuessThrottle.maxAddresses + 50) {
      _ = await throttle.wrongGuess("10.\(index / 65536).\(index / 256 % 256).\(index % 256)")
    }
    #expect(throttle.trackedAddresses == GuessThrottle.maxAddresses)
    #expect(throttle.overRate("192.0.2.1") != nil, "the address over its rate is kept")
  }
}
