import CommandLineValues
import Foundation
import Synchronization
import TestSupport
import Testing

/// What stands in for Foundation's FileHandle, Thread and trimming in qna and wsc does what
/// Foundation did.
@Suite("Foundation's stand-ins")
struct FoundationFreeTests {
  /// Every white space and line break scalar, and a few that are neither, around words.
  static let pieces: [String] = [
    " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}",
    "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{200B}", "\u{FEFF}", "a",
    "é", "日本", "e\u{301}", "",
  ]

  @Test func trimsAsFoundationDoes() {
    var random = SplitMix64(seed: 0x7213)
    for _ in 0..<2_000 {
      let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in
        Self.pieces.randomElement(using: &random)!
      }.joined()
      #expect(text.trimmingWhiteSpace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }
  }

  @Test func aDetachedThreadRunsItsBodyOffTheCaller() async {
    let caller = pthread_self()
    let ranElsewhere = await withCheckedContinuation { continuation in
      DetachedThread.start { continuation.resume(returning: pthread_self() != caller) }
    }
    #expect(ranElsewhere)
  }

  /// Writes that stop short and are interrupted are resumed until every byte is out.
  @Test func shortAndInterruptedWritesAreResumed() {
    let bytes = (0..<10_000).map { UInt8($0 % 251) }
    var written: [UInt8] = []
    var calls = 0
    StandardStream.write(bytes: bytes, to: 99) { descriptor, pointer, count in
      calls += 1
      if calls % 3 == 0 {
        errno = EINTR
        return -1
      }
      let taken = min(count, 7)
      written += UnsafeRawBufferPointer(start: pointer, count: taken)
      return taken
    }
    #expect(written == bytes)
  }

  /// More than a pipe holds, read on a thread of its own while the write blocks.
  @Test func standardStreamWritesEveryByteToAPipe() throws {
    let bytes = (0..<200_000).map { UInt8($0 % 251) }
    let pipe = Pipe()
    let received = Mutex<Data?>(nil)
    let done = DispatchSemaphore(value: 0)
    DetachedThread.start {
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      received.withLock { $0 = data }
      done.signal()
    }
    StandardStream.write(bytes: bytes, to: pipe.fileHandleForWriting.fileDescriptor)
    try pipe.fileHandleForWriting.close()
    done.wait()
    #expect(received.withLock { $0.map(Array.init) } == bytes)
  }
}
