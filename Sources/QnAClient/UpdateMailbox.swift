import QnA
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Where the engine leaves its updates for a front end that may be slower than the network
/// (a terminal nobody scrolls, `--headless` into a pipe nobody reads): what waits is bounded
/// by the room and the attendee's own questions, not by the flood, and costs nothing per
/// update. No state waits here: the reader reads the engine's state as it is when it takes the
/// update. A question of the room that changed again while waiting is reported once, as it is
/// now; a change to one of the attendee's questions (an answer, a refusal) waits in order and
/// is never dropped; news of the connection (handshakes, notices) waits too, up to
/// `maxWaiting` changes.
package final class UpdateMailbox: Sendable {
  private struct Box {
    var pending = false
    var changes: [QnAChange] = []
    /// Where each room question's waiting change is in `changes`.
    var roomChangeAt: [UUID: Int] = [:]
    var finished = false
    var reader: CheckedContinuation<Void, Never>?
  }

  private let box = Mutex(Box())

  package init() {}
  /// Changes waiting past which news of the connection is no longer kept.
  package static let maxWaiting = 10_000

  static func isAboutTheConnection(_ change: QnAChange) -> Bool {
    switch change {
    case .connecting, .connected, .handshake, .notice: true
    default: false
    }
  }
  /// The engine's state now; `nil` once the engine is gone.
  private let source = Mutex<(@Sendable () async -> QnAState?)?>(nil)

  /// Where `next` reads the state from (set once the engine exists).
  package func readState(from source: @escaping @Sendable () async -> QnAState?) {
    self.source.withLock { $0 = source }
  }

  /// The state changed and reported `changes`; wakes the reader.
  package func post(changes: [QnAChange]) {
    let reader = box.withLock { box -> CheckedContinuation<Void, Never>? in
      box.pending = true
      for change in changes {
        if case .roomQuestion(let entry, _) = change {
          if let index = box.roomChangeAt[entry.id] {
            box.changes[index] = change
            continue
          }
          box.roomChangeAt[entry.id] = box.changes.count
        }
        // Past the bound, what only tells of the connection (a hostile server's endless
        // handshakes or notices) is left out; what tells of a question never is.
        if box.changes.count >= Self.maxWaiting, Self.isAboutTheConnection(change) { continue }
        box.changes.append(change)
      }
      defer { box.reader = nil }
      return box.reader
    }
    reader?.resume()
  }

  /// No more updates: the reader gets what waits, then `nil`.
  package func finish() {
    let reader = box.withLock { box -> CheckedContinuation<Void, Never>? in
      box.finished = true
      defer { box.reader = nil }
      return box.reader
    }
    reader?.resume()
  }

  /// Everything that waited, as one update (the state now, the changes since the last call);
  /// waits for one if nothing does. `nil` once finished and taken. One reader only.
  package func next() async -> EngineUpdate? {
    while true {
      if let changes = take() {
        guard let state = await source.withLock({ $0 })?() else { return nil }
        return EngineUpdate(state: state, changes: changes)
      }
      if box.withLock({ $0.finished }) { return nil }
      await withCheckedContinuation { continuation in
        let ready = box.withLock { box -> Bool in
          if box.pending || box.finished { return true }
          box.reader = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    }
  }

  private func take() -> [QnAChange]? {
    box.withLock { box in
      guard box.pending else { return nil }
      defer {
        box.pending = false
        box.changes = []
        box.roomChangeAt = [:]
      }
      return box.changes
    }
  }
}
