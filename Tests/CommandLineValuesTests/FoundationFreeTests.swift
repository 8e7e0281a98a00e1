import Foundation
import Testing

@testable import CommandLineValues

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
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in
        Self.pieces.randomElement(using: &random)!
      }.joined()
      #expect(text.trimmingWhiteSpace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
      #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }
  }

  @Test func aDetachedThreadRunsItsBody() async {
    let ran = await withCheckedContinuation { continuation in
      DetachedThread.start { continuation.resume(returning: true) }
    }
    #expect(ran)
  }

  /// More than a pipe holds, so that the writes are short and resumed.
  @Test func standardStreamWritesEveryByte() async throws {
    let bytes = (0..<200_000).map { UInt8($0 % 251) }
    let pipe = Pipe()
    let reader = Task.detached { pipe.fileHandleForReading.readDataToEndOfFile() }
    StandardStream.write(bytes: bytes, to: pipe.fileHandleForWriting.fileDescriptor)
    try pipe.fileHandleForWriting.close()
    #expect(Array(await reader.value) == bytes)
  }
}
