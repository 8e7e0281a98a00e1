import ArgumentParser
import CommandLineValues
import Foundation
import QnA
import QnAStore
import QnAStoreLocation

/// `qna-server export`: every question of a database, in every state, on stdout.
struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: CommandTree.name("qna-server export"),
    abstract: "Write every question (review and dismissed included) to stdout.",
    discussion: """
      Columns: id, text, votes, state, asked_at, answered_at, answer, name, flagged, original, \
      starred, label. CSV starts with a \
      UTF-8 byte order mark, so that spreadsheets read it as UTF-8, and cells a spreadsheet \
      would run as formulas start with '. Works on the database of a running server.
      """,
    version: ProjectVersion.current)

  @Option(
    help: "SQLite database file or postgres:// URL (default \(StoreLocation.defaultPath))."
  )
  var db: String?
  @Option(help: "csv, json or markdown (default csv).") var format: String?
  @Option(help: "Only the questions under this label.") var label: String?

  func run() async throws {
    guard let format = ExportFormat(rawValue: format ?? "csv") else {
      throw ValidationError("--format must be csv, json or markdown")
    }
    let path = db ?? StoreLocation.defaultPath
    guard
      path == ":memory:" || StoreLocation.isPostgres(path)
        || FileManager.default.fileExists(atPath: path)
    else {
      QnAServerCommand.fail("no database at \(path)")
    }
    do {
      let store = try StoreLocation.open(path)
      try await store.prepare()
      // The label in any case, as the session spells it (a removed one as it was spelt).
      var wanted = label
      if let label {
        wanted = SessionLabels.match(label, in: try await store.moderation.labels()) ?? label
      }
      let questions = try await store.export().filter {
        wanted == nil || $0.question.label == wanted
      }
      let bytes = Export.render(questions, as: format)
      FileHandle.standardOutput.write(Data(bytes))
    } catch {
      QnAServerCommand.fail("\(error)")
    }
  }
}
