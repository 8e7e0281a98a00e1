import CommandLineValues
import Synchronization

/// Time that moves only when a test says so.
public final class ManualClock: SessionClock {
  public init() {}

  private struct Sleeper {
    let id: Int
    let deadline: Duration
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Duration = .zero
    var sleepers: [Sleeper] = []
    var nextID = 0
  }

  private let state = Mutex(State())

  public var now: Duration { state.withLock { $0.now } }

  /// How many tasks are sleeping on this clock.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
  /// Until when each of them sleeps.
  public var sleeperDeadlines: [Duration] { state.withLock { $0.sleepers.map(\.deadline) } }
  /// How many sleeps were ever asked for: a timer that keeps re-arming shows up here.
  public var sleepCalls: Int { state.withLock { $0.nextID } }

  public func sleep(until deadline: Duration) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        // A task cancelled before it got here ran its cancellation handler already, with no
        // sleeper to find: it must not start sleeping now, or it sleeps for good.
        enum Start { case sleep, wake, cancelled }
        let start = state.withLock { state -> Start in
          if Task.isCancelled { return .cancelled }
          if deadline <= state.now { return .wake }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return .sleep
        }
        switch start {
        case .sleep: break
        case .wake: continuation.resume()
        case .cancelled: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  public func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now += duration
      let due = state.sleepers.filter { $0.deadline <= state.now }
      state.sleepers.removeAll { $0.deadline <= state.now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}

/// Lets other tasks run until `condition` holds (no wall-clock waiting: each round is a yield).
public func eventually(
  _ description: String = "condition", rounds: Int = 20_000, _ condition: () async -> Bool
) async -> Bool {
  for _ in 0..<rounds {
    if await condition() { return true }
    await Task.yield()
  }
  // A loaded machine (CI, two cores) may need real time, not just turns: up to 10 s more.
  let deadline = ContinuousClock.now + .seconds(10)
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return false
}
