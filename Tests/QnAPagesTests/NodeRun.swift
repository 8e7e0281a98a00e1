import Foundation
import TestSupport
import Testing

/// Node, for the pages' scripts as the server serves them.
enum NodeRun {
  /// What `script` printed when Node ran it as an ES module (a failed run is an issue).
  static func output(of script: String) throws -> String {
    let directory = try TemporaryDirectory()
    let path = directory.path("script.mjs")
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    let run = try ProgramRun("/usr/bin/node", [path])
    #expect(run.status == 0, "\(run.errors)")
    return run.output
  }
}
