import Synchronization

/// A bounded single-consumer queue: `push` suspends while `capacity` elements are waiting, so
/// a slow consumer stops the producer (and with it, reading from the socket) instead of
/// letting memory grow.
final class EventQueue<Element: Sendable>: Sendable {
  private struct State {
    var buffer: [Element] = []
    var head = 0
    var finished = false
    var consumer: CheckedContinuation<Element?, Never>?
    var producers: [CheckedContinuation<Void, Never>] = []
    var count: Int { buffer.count - head }
  }

  let capacity: Int
  private let state = Mutex(State())

  init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
  }

  /// Whether a push would wait right now.
  var isFull: Bool { state.withLock { $0.count >= capacity } }

  private enum PushOutcome {
    case delivered(CheckedContinuation<Element?, Never>?)
    case full
  }

  func push(_ element: Element) async {
    while true {
      let outcome = state.withLock { state -> PushOutcome in
        if state.finished { return .delivered(nil) }
        if let consumer = state.consumer {
          state.consumer = nil
          return .delivered(consumer)
        }
        guard state.count < capacity else { return .full }
        state.buffer.append(element)
        return .delivered(nil)
      }
      switch outcome {
      case .delivered(let consumer):
        consumer?.resume(returning: element)
        return
      case .full:
        await withCheckedContinuation { continuation in
          let resumeNow = state.withLock { state -> Bool in
            if state.count < capacity || state.finished { return true }
            state.producers.append(continuation)
            return false
          }
          if resumeNow { continuation.resume() }
        }
      }
    }
  }

  /// Ends the sequence after the elements already queued; pending pushes are dropped.
  func finish() {
    let (consumer, producers) = state.withLock { state in
      state.finished = true
      defer {
        state.producers = []
        if state.count == 0 { state.consumer = nil }
      }
      return (state.count == 0 ? state.consumer : nil, state.producers)
    }
    consumer?.resume(returning: nil)
    for producer in producers { producer.resume() }
  }

  /// The next element; `nil` once finished, or when the waiting task is cancelled.
  func next() async -> Element? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let (element, done, producer) = state.withLock {
          state -> (Element?, Bool, CheckedContinuation<Void, Never>?) in
          if state.count > 0 {
            let element = state.buffer[state.head]
            state.head += 1
            if state.head > 64 && state.head * 2 > state.buffer.count {
              state.buffer.removeFirst(state.head)
              state.head = 0
            }
            let producer = state.producers.isEmpty ? nil : state.producers.removeFirst()
            return (element, false, producer)
          }
          if state.finished || Task.isCancelled { return (nil, true, nil) }
          state.consumer = continuation
          return (nil, false, nil)
        }
        producer?.resume()
        if let element {
          continuation.resume(returning: element)
        } else if done {
          continuation.resume(returning: nil)
        }
      }
    } onCancel: {
      let consumer = state.withLock { state in
        defer { state.consumer = nil }
        return state.consumer
      }
      consumer?.resume(returning: nil)
    }
  }
}
