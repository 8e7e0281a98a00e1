import Foundation
import TestSupport

/// A server under test, as a child process that prints "listening on ..PORT.." first.
final class ServerProcess {
  let name: String
  let port: Int
  /// The presenter API's token when the server was given one (`admin=`): `/metrics` too.
  var adminToken: String?
  private let process: Process
  var pid: Int32 { process.processIdentifier }

  init(name: String, executable: String, arguments: [String]) throws {
    self.name = name
    process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while line.last != 0x0A {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      guard !byte.isEmpty else { break }
      line += byte
    }
    let text = String(decoding: line, as: UTF8.self)
    let digits = text.split(whereSeparator: { !$0.isNumber }).last.flatMap { Int($0) }
    guard text.hasPrefix("listening on"), let digits else {
      throw BenchError.noPort(name, text)
    }
    port = digits
  }

  /// SIGKILL (the child may inherit SIGTERM blocked from this process's threads) and reap
  /// with waitpid (Foundation's `waitUntilExit` can hang on Linux).
  func stop() {
    let pid = process.processIdentifier
    kill(pid, SIGKILL)
    var status: Int32 = 0
    _ = waitpid(pid, &status, 0)
  }
}

enum BenchError: Error, CustomStringConvertible {
  case noPort(String, String)
  case timedOut(String)

  var description: String {
    switch self {
    case .noPort(let name, let line): "\(name) did not report its port: \(line)"
    case .timedOut(let what): "timed out: \(what)"
    }
  }
}

/// This process's open-file limit raised to `wanted` (at most the hard limit): thousands of
/// sockets in one benchmark.
func raiseDescriptorLimit(to wanted: Int) {
  var limit = rlimit()
  if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) {
    limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
  }
}

extension ServerProcess {
  /// The event loops' CPU time writing the rooms' deltas so far
  /// (`qna_broadcast_write_cpu_seconds_total`); `nil` without a token or the figure.
  func broadcastWriteCPU() async -> Duration? {
    guard let adminToken else { return nil }
    let port = port
    let response = try? await onOwnThread {
      try httpRequest(
        "GET", port: port, path: "/metrics", headers: ["Authorization": "Bearer \(adminToken)"])
    }
    let name = "qna_broadcast_write_cpu_seconds_total "
    guard let line = response?.body.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
      let seconds = Double(line.dropFirst(name.count))
    else { return nil }
    return .seconds(seconds)
  }
}
