import Synchronization

/// Runs work with a time limit that holds even when the work ignores cancellation: the caller
/// gets `Passed` at the limit and the work, cancelled, ends on its own (`onExpiry` can make
/// it end sooner: close what it waits on). `endEarly` gets a way to fail the call before the
/// limit (its connection lost, say), with the same effect on the work.
package enum Deadline {
  package struct Passed: Error {}

  package static func run<T: Sendable>(
    within limit: Duration, onExpiry: @escaping @Sendable () -> Void = {},
    endEarly: (@escaping @Sendable (any Error) -> Void) -> Void = { _ in },
    _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let race = Race()
    return try await withCheckedThrowingContinuation { continuation in
      let task = Task {
        do {
          let value = try await work()
          if race.finish() { continuation.resume(returning: value) }
        } catch {
          if race.finish() { continuation.resume(throwing: error) }
        }
      }
      race.start(
        Task {
          try? await Task.sleep(for: limit)
          guard !Task.isCancelled, race.finish() else { return }
          continuation.resume(throwing: Passed())
          task.cancel()
          onExpiry()
        })
      endEarly { error in
        guard race.finish() else { return }
        continuation.resume(throwing: error)
        task.cancel()
      }
    }
  }

  /// Who finished first, and the timer to stop when the work does.
  private final class Race: Sendable {
    private let state = Mutex<(done: Bool, timer: Task<Void, Never>?)>((false, nil))

    package func start(_ timer: Task<Void, Never>) {
      let done = state.withLock { state in
        state.timer = timer
        return state.done
      }
      if done { timer.cancel() }
    }

    /// True for the first caller only; stops the timer.
    package func finish() -> Bool {
      let (first, timer) = state.withLock { state in
        defer { state.done = true }
        return (!state.done, state.timer)
      }
      timer?.cancel()
      return first
    }
  }
}
