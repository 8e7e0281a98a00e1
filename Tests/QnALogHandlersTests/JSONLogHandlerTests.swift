import Foundation
import Logging
import QnALogHandlers
import Synchronization
import Testing

/// The server's log lines, as operators' tools read them.
@Suite("Log handlers")
struct JSONLogHandlerTests {
  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
  }

  @Test func aJSONLogLineCarriesTheEventAndCannotBeBrokenByWhatItQuotes() throws {
    let lines = Lines()
    let handler = JSONLogHandler(
      label: "qna-server", now: { Date(timeIntervalSince1970: 1_795_000_000.25) },
      write: lines.append)
    var logger = Logger(label: "qna-server") { _ in EscapingLogHandler(handler) }
    logger[metadataKey: "instance"] = "1"
    logger.warning(
      "refused GET /x\nforged line \u{1B}[31m", metadata: ["origin": "evil\r\n\u{9B}2J"])
    let written = lines.lines.withLock { $0 }
    #expect(written.count == 1)
    let line = try #require(written.first)
    #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["time"] as? String == "2026-11-18T11:06:40.250Z")
    #expect(object["level"] as? String == "warning")
    #expect(object["label"] as? String == "qna-server")
    let message = try #require(object["message"] as? String)
    #expect(message.hasPrefix("refused GET /x") && !message.contains("\u{1B}"))
    let metadata = try #require(object["metadata"] as? [String: String])
    #expect(metadata["instance"] == "1")
    #expect(metadata["origin"].map { !$0.contains("\u{9B}") && !$0.contains("\r") } == true)
  }
}
