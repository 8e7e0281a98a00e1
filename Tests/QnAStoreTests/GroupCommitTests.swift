import QnAStore
import Synchronization
import TestSupport
import Testing

/// A group commit's batches: a lone request goes at once; a batch that follows another waits
/// a little for more (`linger`), unless enough wait already.
@Suite("Group commit")
struct GroupCommitTests {
  /// Batches as the write saw them; each write waits for `release` until let go.
  final class Writes: Sendable {
    let batches = Mutex<[[Int]]>([])
    let held = Mutex<[CheckedContinuation<Void, Never>]>([])

    func write(_ requests: [Int]) async -> [Result<Int, StoreError>] {
      batches.withLock { $0.append(requests) }
      await withCheckedContinuation { continuation in held.withLock { $0.append(continuation) } }
      return requests.map { .success($0 * 10) }
    }

    func releaseOne() async {
      _ = await eventually("a write held") { !held.withLock(\.isEmpty) }
      held.withLock { $0.removeFirst() }.resume()
    }
  }

  func commit(_ writes: Writes, clock: ManualClock, fullBatch: Int = 64) -> GroupCommit<Int, Int> {
    GroupCommit(
      batchLimit: 512, linger: .milliseconds(5), fullBatch: fullBatch,
      uptime: { clock.now }, sleep: { try? await clock.sleep(until: clock.now + $0) },
      write: { requests, _ in await writes.write(requests) })
  }

  @Test func aBatchAfterAnotherLingersForMoreFromItsFirstRequest() async throws {
    let clock = ManualClock()
    let writes = Writes()
    let commit = commit(writes, clock: clock)
    let answers = Mutex<[Int]>([])
    func submit(_ value: Int) {
      commit.submit(value, session: 1) { result in
        answers.withLock { $0.append((try? result.get()) ?? -1) }
      }
    }
    // A lone request is written at once: nobody lingers for it.
    submit(1)
    #expect(await eventually { writes.batches.withLock { $0 } == [[1]] })
    // Two come while it is written; 2 ms later the batch is written and the next lingers.
    submit(2)
    clock.advance(by: .milliseconds(2))
    submit(3)
    await writes.releaseOne()
    #expect(await eventually { clock.sleeperCount == 1 })
    #expect(clock.sleeperDeadlines == [.milliseconds(5)], "5 ms from the first one's arrival")
    submit(4)
    #expect(writes.batches.withLock { $0.count } == 1, "still lingering")
    clock.advance(by: .milliseconds(3))
    #expect(await eventually { writes.batches.withLock { $0 } == [[1], [2, 3, 4]] })
    await writes.releaseOne()
    #expect(await eventually { answers.withLock { $0.sorted() } == [10, 20, 30, 40] })
  }

  /// A session whose broadcasts are spaced wider lingers as long (`linger(_:session:)`),
  /// looking again every `lingerStep`; another session keeps the default.
  @Test func aSessionLingersAsLongAsItIsTold() async throws {
    let clock = ManualClock()
    let writes = Writes()
    let commit = commit(writes, clock: clock)
    commit.linger(.milliseconds(150), session: 1)
    for (session, linger) in [(Int64(1), Duration.milliseconds(150)), (2, .milliseconds(5))] {
      writes.batches.withLock { $0 = [] }
      let arrived = try await secondBatchWaiting(commit, writes, clock, session: session)
      var looks = 0
      while try await stillLingering(writes, clock) {
        #expect(clock.now - arrived < linger, "session \(session) lingers no longer")
        clock.advance(by: min(GroupCommit<Int, Int>.lingerStep, arrived + linger - clock.now))
        looks += 1
      }
      #expect(clock.now - arrived == linger, "session \(session)")
      #expect(looks == (session == 1 ? 15 : 1), "a look every 10 ms")
      await writes.releaseOne()
    }
  }

  /// A linger cut short while a batch waits (the room's broadcasts closer again) lets the
  /// batch go at the next look, not after the linger it began with.
  @Test func aLingerCutShortLetsTheWaitingBatchGo() async throws {
    let clock = ManualClock()
    let writes = Writes()
    let commit = commit(writes, clock: clock)
    commit.linger(.milliseconds(150), session: 1)
    let arrived = try await secondBatchWaiting(commit, writes, clock, session: 1)
    for _ in 0..<2 {
      #expect(try await stillLingering(writes, clock))
      clock.advance(by: GroupCommit<Int, Int>.lingerStep)
    }
    commit.linger(.milliseconds(5), session: 1)
    if try await stillLingering(writes, clock) {
      clock.advance(by: GroupCommit<Int, Int>.lingerStep)
    }
    #expect(await eventually { writes.batches.withLock(\.count) == 2 })
    #expect(clock.now - arrived <= .milliseconds(30), "not 150 ms")
    await writes.releaseOne()
  }

  /// A first batch written and let go, a second request waiting behind it: when it came.
  func secondBatchWaiting(
    _ commit: GroupCommit<Int, Int>, _ writes: Writes, _ clock: ManualClock, session: Int64
  ) async throws -> Duration {
    commit.submit(1, session: session) { _ in }
    #expect(await eventually { writes.batches.withLock(\.count) == 1 })
    commit.submit(2, session: session) { _ in }
    let arrived = clock.now
    await writes.releaseOne()
    return arrived
  }

  /// Whether the second batch still lingers (its writer asleep) rather than being written.
  func stillLingering(_ writes: Writes, _ clock: ManualClock) async throws -> Bool {
    let settled = await eventually {
      clock.sleeperCount == 1 || writes.batches.withLock(\.count) == 2
    }
    try #require(settled)
    return writes.batches.withLock(\.count) < 2
  }

  @Test func aFullBatchGoesWithoutLingering() async throws {
    let clock = ManualClock()
    let writes = Writes()
    let commit = commit(writes, clock: clock, fullBatch: 3)
    commit.submit(1, session: 1) { _ in }
    #expect(await eventually { writes.batches.withLock { $0 } == [[1]] })
    for value in 2...4 { commit.submit(value, session: 1) { _ in } }
    await writes.releaseOne()
    #expect(await eventually { writes.batches.withLock { $0 } == [[1], [2, 3, 4]] })
    #expect(clock.sleepCalls == 0)
    await writes.releaseOne()
  }
}
