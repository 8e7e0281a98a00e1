import Synchronization

/// The outcome of one write, which may complete before anybody waits for it (the write is
/// started under a lock that the waiter must not hold while suspended).
final class WriteCompletion: Sendable {
  private enum State {
    case pending
    case waiting(CheckedContinuation<TransportError?, Never>)
    case done(TransportError?)
  }

  private let state = Mutex(State.pending)

  func complete(_ failure: TransportError?) {
    let waiter = state.withLock { state -> CheckedContinuation<TransportError?, Never>? in
      defer { state = .done(failure) }
      if case .waiting(let waiter) = state { return waiter }
      return nil
    }
    waiter?.resume(returning: failure)
  }

  /// Nil once the bytes reached the socket, else why they did not.
  func wait() async -> TransportError? {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state -> TransportError?? in
        if case .done(let failure) = state { return .some(failure) }
        state = .waiting(continuation)
        return .none
      }
      if let failure = done { continuation.resume(returning: failure) }
    }
  }
}
