import Foundation

/// Runs blocking work (a socket read, `waitpid`) on a thread of its own. On the cooperative
/// pool it would hold one of its few threads (two on a 2-core machine), and tasks of an
/// in-process server the work waits for could then never run.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread {
      continuation.resume(with: Result { try body() })
    }
  }
}

/// As `onOwnThread`, for work that cannot fail.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread { continuation.resume(returning: body()) }
  }
}
