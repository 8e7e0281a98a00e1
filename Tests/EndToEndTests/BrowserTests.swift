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
    let run = try ProgramRun(
      PeerProcess.python,
      [
        script.path, "--server", "http://127.0.0.1:\(server.port)", "--token", token,
        "--qna", HeadlessProcess.qnaPath,
      ])
    #expect(run.status == 0, "\(run.errors)")
  }
}
