import Synchronization

/// A bounded single-consumer queue: a producer hands over all the events of one socket read
/// with one lock and at most one wake-up; the consumer takes one element at a time (state
/// lives here, not in iterators, so a new `for await` loop loses nothing, and a taken element
/// is referenced nowhere else). `push` suspends while `capacity` elements wait, and
/// `append(_:whenRoom:)` tells its caller to stop (the socket reader stops reading), so a
/// slow consumer holds back the producers instead of letting memory grow; a batch may
/// overshoot the capacity by its own size.
final class EventQueue<Element: Sendable>: Sendable {
  private struct State {
    /// Taken slots are set to nil at once, so a taken element is referenced nowhere here.
    var buffer: [Element?] = []
    /// Index of the next element in `buffer`; taken slots are compacted away now and then.
    var head = 0
    var finished = false
    /// Set once the client is closing: pushes no longer wait (nobody may be reading).
    var unbounded = false
    var consumer: CheckedContinuation<Void, Never>?
    /// Producers held back until there is room again.
    var producers: [@Sendable () -> Void] = []
    /// Told when the consumer next finds the queue empty.
    var drainWatchers: [@Sendable () -> Void] = []

    /// Elements waiting for the consumer.
    var count: Int { buffer.count - head }
  }

  private enum Offer {
    case appended
    case full
    /// The queue is finished: nobody will read them.
    case dropped
  }

  let capacity: Int
  private let state = Mutex(State())

  init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
  }

  /// Whether a push would wait right now.
  var isFull: Bool { state.withLock { $0.count >= capacity } }

  func push(_ element: Element) async {
    await push(contentsOf: [element])
  }

  func push(contentsOf elements: [Element]) async {
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
  func append(contentsOf elements: [Element], whenRoom: @escaping @Sendable () -> Void) -> (
    hasRoom: Bool, wake: ConsumerWake
  ) {
    guard !elements.isEmpty else { return (true, ConsumerWake(consumer: nil)) }
    return state.withLock { state in
      if state.finished { return (true, ConsumerWake(consumer: nil)) }
      state.buffer.append(contentsOf: elements.map { Optional($0) })
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
  func tryPush(_ element: Element) -> Bool {
    offer([element], waitsAllowed: false) == .appended
  }

  /// Appends `elements` and wakes the consumer, unless the queue is full. `waitsAllowed`:
  /// whether the caller is a producer that would wait, whose bound a closing client lifts.
  private func offer(_ elements: [Element], waitsAllowed: Bool) -> Offer {
    let (offer, consumer) = state.withLock { state -> (Offer, CheckedContinuation<Void, Never>?) in
      if state.finished { return (.dropped, nil) }
      guard (waitsAllowed && state.unbounded) || state.count < capacity else { return (.full, nil) }
      state.buffer.append(contentsOf: elements.map { Optional($0) })
      defer { state.consumer = nil }
      return (.appended, state.consumer)
    }
    consumer?.resume()
    return offer
  }

  /// From now on pushes never wait: the client is closing, and its consumer may have stopped
  /// reading (or be the task waiting for the close).
  func stopHoldingProducers() {
    let producers = state.withLock { state in
      state.unbounded = true
      defer { state.producers = [] }
      return state.producers
    }
    for producer in producers { producer() }
  }

  /// Ends the sequence after the elements already queued; later pushes are dropped.
  func finish() {
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

  /// The next element, waiting while there is none; nil once finished and drained, or when
  /// the waiting task is cancelled.
  func next() async -> Element? {
    while true {
      // .some(element or nil-for-the-end), or nil to wait.
      let taken = state.withLock { state -> (Element?, [@Sendable () -> Void])? in
        if state.count > 0 {
          let element = state.buffer[state.head]
          state.buffer[state.head] = nil
          state.head += 1
          if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
          } else if state.head >= 64 && state.head * 2 >= state.buffer.count {
            state.buffer.removeFirst(state.head)
            state.head = 0
          }
          // Producers resume at half the capacity, not one below it: each pause and resume
          // of the socket reader costs more than a few events of slack.
          let wake = state.count <= capacity / 2 ? state.producers : []
          if !wake.isEmpty { state.producers = [] }
          return (element, wake)
        }
        if state.finished || Task.isCancelled { return (nil, []) }
        return nil
      }
      if let (element, producers) = taken {
        for producer in producers { producer() }
        return element
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
