import Foundation
import TestSupport
import Testing

/// The presenter's page in Debian's Chromium (headless, over the DevTools protocol): a new
/// question appears without a reload, a click answers it, the attendee's `qna` hears it.
@Suite("the presenter's page in a browser", .serialized)
struct BrowserTests {
  @Test func aQuestionAppearsLiveAndAClickAnswersIt() async throws {
    let token = "browser-token-0123"
    let server = try await QnAServerProcess([
      "--port", "0", "--db", ":memory:", "--admin-token", token,
    ])
    defer { server.stop() }
    let script = PeerProcess.packageRoot.appendingPathComponent("Tests/Browser/presenter_page.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: PeerProcess.python)
    process.arguments = [
      script.path, "--server", "http://127.0.0.1:\(server.port)", "--token", token,
      "--qna", HeadlessProcess.qnaPath,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let reason = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(String(decoding: reason, as: UTF8.self))")
  }
}
