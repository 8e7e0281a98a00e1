import Foundation
import TestSupport
import Testing

/// `qna-server export` against a running server's database: the same bytes as the API.
@Suite("qna-server: the export command", .serialized)
struct ExportCommandTests {
  @Test func theCommandAndTheAPIExportTheSameFromARunningServersDatabase() async throws {
    let directory = HeadlessProcess.freshDirectory()
    let database = directory.appendingPathComponent("qna.sqlite").path
    let server = try await QnAServerProcess(["--port", "0", "--db", database, "--mock"])
    defer { server.stop() }
    #expect(try await server.http("POST", "/control/room/seed?n=50").status == 200)
    let fromAPI = try await server.http("GET", "/api/export?format=json")
    #expect(fromAPI.status == 200 && fromAPI.headers["content-type"] == "application/json")
    let fromCommand = try Self.run(
      BuiltProducts.path("qna-server"), ["export", "--db", database, "--format", "json"])
    #expect(fromCommand == fromAPI.body)
    #expect(try await server.http("GET", "/api/export?format=xml").status == 400)
    let csv = try await server.http("GET", "/api/export")
    #expect(csv.headers["content-type"]?.hasPrefix("text/csv") == true)
    #expect(csv.body.contains("Seeded question 50"))
    let missing = try? Self.run(
      BuiltProducts.path("qna-server"),
      ["export", "--db", directory.appendingPathComponent("none.sqlite").path])
    #expect(missing == nil, "no database there: an error, not an empty export")
  }

  /// Runs a program; its stdout, or an error when it exits non-zero.
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let run = try ProgramRun(executable, arguments)
    guard run.status == 0 else { throw Failed(status: run.status) }
    return run.output
  }

  struct Failed: Error { var status: Int32 }
}
