import Foundation
import TestSupport
import Testing

/// A session's report, served to presenters (`/report`, `/s/CODE/report`, the style sheet
/// linked under the page's CSP) and written by `qna-server report` from a running server's
/// database (one file, its style inside).
@Suite("qna-server: the session report, served and written", .serialized)
struct ReportCommandTests {
  @Test func presentersAndTheCommandGetTheSameReport() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let database = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", database, "--mock"])
    defer { server.stop() }
    #expect(try await server.http("POST", "/control/room/seed?n=30").status == 200)
    let served = try await server.http("GET", "/report")
    #expect(served.status == 200)
    #expect(served.headers["content-type"] == "text/html; charset=utf-8")
    #expect(served.body.contains("<span class=\"figure\">30</span> questions asked"))
    #expect(served.body.contains("href=\"/assets/report.css\"") && !served.body.contains("<style"))
    // On the reader's clock (the presenter page's script asks for it), or refused in words.
    let berlin = try await server.http("GET", "/report?tz=Europe/Berlin")
    #expect(berlin.status == 200 && berlin.body.contains("(Europe/Berlin)."))
    #expect(try await server.http("GET", "/report?tz=Mars/Olympus").status == 400)
    let css = try await server.http("GET", "/assets/report.css")
    #expect(css.status == 200)
    // The presenter page links to it.
    #expect(try await server.http("GET", "/").body.contains("href=\"/report\""))

    let written = try ExportCommandTests.run(
      BuiltProducts.path("qna-server"), ["report", "--db", database])
    #expect(written.contains("<span class=\"figure\">30</span> questions asked"))
    #expect(written.contains("<style>") && !written.contains("/assets/report.css"))
    let file = directory.appendingPathComponent("report.html").path
    _ = try ExportCommandTests.run(
      BuiltProducts.path("qna-server"), ["report", "--db", database, "-o", file])
    #expect(try String(contentsOfFile: file, encoding: .utf8).contains("<section id=\"top\">"))

    // A session's own, by its code in any case; no such session: exit 1.
    let created = try ExportCommandTests.run(
      BuiltProducts.path("qna-server"), ["session", "create", "Keynote", "--db", database])
    let code = try #require(
      created.split(separator: "\n").first { $0.hasPrefix("code: ") }?.dropFirst(6))
    let session = try ExportCommandTests.run(
      BuiltProducts.path("qna-server"), ["report", code.lowercased(), "--db", database])
    #expect(session.contains("<h1><bdi>Keynote</bdi></h1>") && session.contains("Session \(code)"))
    #expect(session.contains("<span class=\"figure\">0</span> questions asked"))
    let missing = try? ExportCommandTests.run(
      BuiltProducts.path("qna-server"), ["report", "NOPE42", "--db", database])
    #expect(missing == nil)
  }
}
