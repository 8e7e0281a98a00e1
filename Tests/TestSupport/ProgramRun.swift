import Foundation
import Synchronization

/// A program run to its end: its exit status, stdout and stderr.
public struct ProgramRun: Sendable {
  public let status: Int32
  public let output: String
  public let errors: String

  /// Runs `executable` and waits for it. Both pipes are read to their end before the wait
  /// (a chatty program would otherwise block on a full pipe).
  public init(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.filter {
      !ChildProcess.isInheritedSetting($0.key)
    }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errorData = Mutex<Data>(Data())
    let reader = Thread {
      errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
    }
    reader.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { usleep(1000) }
    status = process.terminationStatus
    self.output = String(decoding: data, as: UTF8.self)
    self.errors = String(decoding: errorData.withLock { $0 }, as: UTF8.self)
  }
}
