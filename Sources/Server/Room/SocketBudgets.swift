import Synchronization

/// Bytes a socket's writer has yet to write, shared with its task; after `finish` nothing
/// more is counted, so the shared budget gets each byte back exactly once.
package final class QueuedBytes: Sendable {
  package struct State {
    package var count = 0
    /// Of `count`: written to a channel over its high-water mark (frames output).
    package var blocked = 0
    package var finished = false
  }

  package enum Verdict {
    case queued
    /// Over a limit: the attendee is too far behind.
    case tooFar
    /// The socket has ended.
    case gone
  }

  package let state = Mutex(State())
  /// Bytes of frames handed to the socket's event loop and not yet written by it. An atomic
  /// of its own: a broadcast reads it for every socket of the room (`isCongested`), and
  /// nothing else needs to change with it.
  private let handedBytes = Atomic(0)

  /// `size` bytes of a frame handed to the event loop, until it writes them (`unhand`).
  package func hand(_ size: Int) { handedBytes.add(size, ordering: .relaxed) }
  /// `size` bytes handed earlier reached the loop.
  package func unhand(_ size: Int) { handedBytes.subtract(size, ordering: .relaxed) }
  /// What the loop has yet to take of what was handed to it.
  package var handed: Int { handedBytes.load(ordering: .relaxed) }

  /// `size` bytes left the queue; returns what to give back to the shared budget.
  package func written(_ size: Int) -> Int {
    state.withLock { state in
      guard !state.finished else { return 0 }
      state.count -= size
      return size
    }
  }

  /// No more counting; returns what was still queued.
  package func finish() -> Int {
    state.withLock { state in
      state.finished = true
      defer {
        state.count = 0
        state.blocked = 0
      }
      return state.count
    }
  }
}

/// The bytes queued for all sockets together, against one limit.
package final class SendBudget: Sendable {
  package let limit: Int
  private let used = Mutex(0)

  package init(limit: Int) { self.limit = limit }

  /// Takes `size` bytes if they fit.
  package func take(_ size: Int) -> Bool {
    used.withLock { used in
      guard used + size <= limit else { return false }
      used += size
      return true
    }
  }

  package func release(_ size: Int) { used.withLock { $0 -= size } }
}
