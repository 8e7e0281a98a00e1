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
