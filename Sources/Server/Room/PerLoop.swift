import NIOCore
import Synchronization

/// One value per event loop, made the first time the loop asks and kept for the process's
/// life (loops are few and fixed): what a loop's work shares (`LoopScratch`, `LoopAnswers`).
final class PerLoop<Value: Sendable>: Sendable {
  private let values = Mutex<[ObjectIdentifier: Value]>([:])
  private let make: @Sendable (any EventLoop) -> Value

  init(_ make: @escaping @Sendable (any EventLoop) -> Value) { self.make = make }

  /// `loop`'s own.
  func on(_ loop: any EventLoop) -> Value {
    values.withLock { values in
      if let value = values[ObjectIdentifier(loop)] { return value }
      let value = make(loop)
      values[ObjectIdentifier(loop)] = value
      return value
    }
  }
}
