import Synchronization

/// A bounded single-consumer queue: a producer hands over all the events of one socket read
/// with one lock and at most one wake-up, and the consumer takes everything queued with one
/// lock too, into a batch it hands out under a lock no producer takes. State lives here, not
/// in iterators, so a new `for await` loop loses nothing, and a handed-out element is
/// referenced nowhere else. `push` suspends while `capacity` elements wait, and
/// `append(_:whenRoom:)` tells its caller to stop (the socket reader stops reading), so a
/// slow consumer holds back the producers instead of letting memory grow. Taking a batch
/// makes room, so at most twice the capacity plus overshoot is held (the queue and the
/// consumer's batch), the overshoot being what the reads in flight when it filled brought.
package final class EventQueue<Element: Sendable>: Sendable {
  private struct State {
    var buffer: [Element] = []
    var finished = false
    /// Set once the client is closing: pushes no longer wait (nobody may be reading).
    var unbounded = false
    var consumer: CheckedContinuation<Void, Never>?
    /// Producers held back until there is room again.
    var producers: [@Sendable () -> Void] = []
    /// Told when the consumer next finds the queue empty.
    var drainWatchers: [@Sendable () -> Void] = []

    /// Elements waiting for the consumer.
    var count: Int { buffer.count }
  }

  private enum Offer {
    case appended
    case full
    /// The queue is finished: nobody will read them.
    case dropped
  }

  let capacity: Int
  private let state = Mutex(State())
  /// The consumer's batch, last element first: `popLast` moves each out, so the batch does not
  /// keep what it handed out. Its own lock, which only consumers take: uncontended with one,
  /// and still safe when a cancelled loop and a new one overlap. Its storage is swapped with
  /// the queue's, so neither is reallocated per batch.
  private let batch = Mutex<[Element]>([])

  package init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
  }

  /// Whether a push would wait right now.
  package var isFull: Bool { state.withLock { $0.count >= capacity } }

  package func push(_ element: Element) async {
    await push(contentsOf: [element])
  }

  package func push(contentsOf elements: [Element]) async {
    guard !elements.isEmpty else { return }
    while offer(elements, waitsAllowed: true) == .full {
      await withCheckedContinuation { continuation in
        let resumeNow = state.withLock { state -> Bool in
          if state.count < capacity || state.finished || state.unbounded { return true }
          state.producers.append { continuation.resume() }
          return false
        }
        if resumeNow { continuation.resume() }
      }
    }
  }

  /// Appends `elements` even past the capacity (they were already read), never waiting.
  /// `hasRoom` is false when the queue is full: the caller should then stop producing until
  /// `whenRoom` is called, once, after the consumer has made room. The caller wakes the
  /// consumer (`wake()`) after releasing its own locks, so the woken consumer does not
  /// contend for them.
  func append(contentsOf elements: consuming [Element], whenRoom: @escaping @Sendable () -> Void)
    -> (hasRoom: Bool, wake: ConsumerWake)
  {
    var incoming = elements
    guard !incoming.isEmpty else { return (true, ConsumerWake(consumer: nil)) }
    return state.withLock { state in
      if state.finished { return (true, ConsumerWake(consumer: nil)) }
      Self.move(&incoming, to: &state.buffer)
      let room = state.unbounded || state.count < capacity
      if !room { state.producers.append(whenRoom) }
      defer { state.consumer = nil }
      return (room, ConsumerWake(consumer: state.consumer))
    }
  }

  /// The consumer to resume after an `append`, if it was waiting.
  struct ConsumerWake: Sendable {
    let consumer: CheckedContinuation<Void, Never>?
    func callAsFunction() { consumer?.resume() }
  }

  /// Calls `callback` once the consumer, having taken everything queued so far, waits for
  /// more: it has then finished handling those elements (and sent any replies to them). At
  /// once if it already waits on an empty queue, or the queue is finished.
  func whenDrained(_ callback: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      if state.finished || (state.count == 0 && state.consumer != nil) { return true }
      state.drainWatchers.append(callback)
      return false
    }
    if now { callback() }
  }

  /// Adds the element only if there is room now; never waits. For reports that may be
  /// dropped (a stall report is superseded by the next one anyway).
  @discardableResult
  package func tryPush(_ element: Element) -> Bool {
    offer([element], waitsAllowed: false) == .appended
  }

  /// Appends `elements` and wakes the consumer, unless the queue is full. `waitsAllowed`:
  /// whether the caller is a producer that would wait, whose bound a closing client lifts.
  private func offer(_ elements: [Element], waitsAllowed: Bool) -> Offer {
    let (offer, consumer) = state.withLock { state -> (Offer, CheckedContinuation<Void, Never>?) in
      if state.finished { return (.dropped, nil) }
      guard (waitsAllowed && state.unbounded) || state.count < capacity else { return (.full, nil) }
      state.buffer.append(contentsOf: elements)
      defer { state.consumer = nil }
      return (.appended, state.consumer)
    }
    consumer?.resume()
    return offer
  }

  /// From now on pushes never wait: the client is closing, and its consumer may have stopped
  /// reading (or be the task waiting for the close).
  package func stopHoldingProducers() {
    let producers = state.withLock { state in
      state.unbounded = true
      defer { state.producers = [] }
      return state.producers
    }
    for producer in producers { producer() }
  }

  /// Ends the sequence after the elements already queued; later pushes are dropped.
  package func finish() {
    let (consumer, producers) = state.withLock { state in
      state.finished = true
      defer {
        state.consumer = nil
        state.producers = []
        state.drainWatchers = []
      }
      return (state.consumer, state.producers + state.drainWatchers)
    }
    consumer?.resume()
    for producer in producers { producer() }
  }

  /// Appends `incoming` to `buffer`; into an empty buffer it moves the array whole (the usual
  /// case: the consumer took the last batch), with no per-element copy.
  private static func move(_ incoming: inout [Element], to buffer: inout [Element]) {
    if buffer.isEmpty {
      swap(&buffer, &incoming)
    } else {
      buffer.append(contentsOf: incoming)
    }
  }

  /// The next element, waiting while there is none; nil once finished and drained, or when
  /// the waiting task is cancelled. Runs on the caller's executor: an element from the batch
  /// in hand costs no hop and no lock a producer takes, and a socket read's hundreds of small
  /// messages cost the consumer one of the queue's locks.
  nonisolated(nonsending) package func next() async -> Element? {
    while true {
      if let element = batch.withLock({ $0.popLast() }) { return element }
      // Something to hand out (true), the end (false), or nil to wait.
      let taken = state.withLock { state -> (Bool, [@Sendable () -> Void])? in
        if !state.buffer.isEmpty {
          let took = batch.withLock { batch in
            // Another consumer may have taken a batch since: hand that out first.
            guard batch.isEmpty else { return false }
            // The empty batch keeps its storage: the queue appends into it next.
            swap(&batch, &state.buffer)
            batch.reverse()
            return true
          }
          guard took else { return (true, []) }
          // Taken means room: the producers go on.
          defer { state.producers = [] }
          return (true, state.producers)
        }
        if state.finished || Task.isCancelled { return (false, []) }
        return nil
      }
      if let (more, producers) = taken {
        for producer in producers { producer() }
        guard more else { return nil }
        continue
      }
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let (resumeNow, watchers) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
            if state.count > 0 || state.finished || Task.isCancelled { return (true, []) }
            precondition(state.consumer == nil, "EventQueue has a single consumer")
            state.consumer = continuation
            // Empty and waiting: whatever the consumer took before has been handled.
            defer { state.drainWatchers = [] }
            return (false, state.drainWatchers)
          }
          for watcher in watchers { watcher() }
          if resumeNow { continuation.resume() }
        }
      } onCancel: {
        let consumer = state.withLock { state in
          defer { state.consumer = nil }
          return state.consumer
        }
        consumer?.resume()
      }
    }
  }
}
