import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// Stdin's lines, read on a thread of their own (reads block). At most `capacity` lines wait
/// for the consumer; the reader stops reading meanwhile, so `qna < hugefile` or
/// `wsc < hugefile` against a slow server holds the file back in the pipe instead of
/// buffering it.
public struct StandardInputLines: AsyncSequence, Sendable {
  private let stream: AsyncStream<String>
  private let room: DispatchSemaphore

  public init(capacity: Int = 16) {
    let room = DispatchSemaphore(value: capacity)
    self.room = room
    stream = AsyncStream { continuation in
      DetachedThread.start {
        while let line = readLine(strippingNewline: true) {
          room.wait()
          continuation.yield(line)
        }
        continuation.finish()
      }
    }
  }

  public struct AsyncIterator: AsyncIteratorProtocol {
    var base: AsyncStream<String>.AsyncIterator
    let room: DispatchSemaphore

    public mutating func next() async -> String? {
      guard let line = await base.next() else { return nil }
      room.signal()
      return line
    }
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: stream.makeAsyncIterator(), room: room)
  }
}
