import ArgumentParser
import CommandLineValues
import Foundation
import QnAPages
import QnAStore

/// `qna-server report [CODE]`: a session's report, one HTML file with SVG charts that
/// stands alone (its style sheet inside it), printable to PDF from a browser.
struct ReportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CommandTree.name("qna-server report"),
    abstract: "Write a session's report: one HTML page with charts, printable to PDF.",
    discussion: """
      The report shows the questions, votes and answers over time, answered against open, \
      the top questions, every poll's results and the attendance (attendees who joined, and \
      the most present at once). It is one file with its style inside: open it in a browser, \
      print it to PDF. Times are in the local time zone (TZ). Without CODE, the server's own \
      room. Works on the database of a running server; presenters also find it at \
      /s/CODE/report.
      """,
    version: ProjectVersion.current)

  @Argument(help: "The session's code (any case); none: the server's own room.")
  var code: String?
  @OptionGroup var database: SessionCommand.Database
  @Option(name: .shortAndLong, help: "Write the report to this file (default: stdout).")
  var output: String?

  func run() async throws {
    let store = await database.open()
    let report = try await SessionCommand.run { () async throws -> String in
      var session = SessionReport.Session(title: "qna", code: nil)
      var scoped = store
      if let code {
        guard let record = try await store.directory.session(code: code), let id = record.id
        else {
          SessionCommand.fail("there is no session \(code)", status: 1)
        }
        session = SessionReport.Session(title: record.title, code: record.code)
        scoped = store.session(id)
      }
      // The style sheet as the server serves it (shrunk), without bundling every script.
      let css = PageAssets.shrunk("report.css", PageAssets.text("report.css") ?? "")
      return SessionReport.render(
        try await scoped.report(), session: session, style: .embedded(css), generatedAt: Date())
    }
    let bytes = Data(report.utf8)
    guard let output else {
      FileHandle.standardOutput.write(bytes)
      return
    }
    do {
      try bytes.write(to: URL(fileURLWithPath: output), options: Data.WritingOptions.atomic)
    } catch {
      SessionCommand.fail("could not write \(output): \(error.localizedDescription)", status: 1)
    }
  }
}
