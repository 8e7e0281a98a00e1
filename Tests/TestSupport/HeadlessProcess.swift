import Foundation
import Synchronization

/// `qna --headless` as a script runs it: a real process whose JSON lines are collected as they
/// come, so a test can wait for one, act on the server, then wait for the next.
public final class HeadlessProcess: Sendable {
  public static var qnaPath: String { BuiltProducts.path("qna") }

  public struct Event: @unchecked Sendable {
    // JSONSerialization's values: strings, numbers, null; immutable once parsed.
    public let fields: [String: Any]
    public let raw: String
    /// When this process read it.
    public var at = ContinuousClock.now

    public var name: String { fields["event"] as? String ?? "" }
    public subscript(key: String) -> String? { fields[key] as? String }
  }

  private let child: ChildProcess
  private let output = Mutex<(events: [Event], ended: Bool)>(([], false))
  private let errors = Mutex<String?>(nil)

  /// Runs `qna --headless`; its pending-questions file lives in `stateDirectory` (a fresh
  /// temporary one unless given), never in the user's own state directory.
  /// `environment` adds to (or replaces) the test's own, as for `ChildProcess`.
  public init(
    _ arguments: [String], stdin: String? = nil, stateDirectory: URL? = nil,
    environment: [String: String] = [:]
  ) throws {
    let state = stateDirectory ?? Self.freshDirectory()
    child = try ChildProcess(
      Self.qnaPath, ["--headless"] + arguments,
      environment: environment.merging(["XDG_STATE_HOME": state.path]) { $1 })
    if let stdin {
      try child.feed(stdin)
    }
    let stdout = child.stdout
    let stderr = child.stderr
    Thread.detachNewThread { [self] in
      var pending = Data()
      while case let chunk = stdout.availableData, !chunk.isEmpty {
        pending += chunk
        while let newline = pending.firstIndex(of: 0x0A) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          pending = Data(pending[(newline + 1)...])
          let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
          let event = Event(fields: object as? [String: Any] ?? ["unparsed": line], raw: line)
          self.output.withLock { $0.events.append(event) }
        }
      }
      self.output.withLock { $0.ended = true }
    }
    Thread.detachNewThread { [self] in
      let text = String(decoding: stderr.readDataToEndOfFile(), as: UTF8.self)
      self.errors.withLock { $0 = text }
    }
  }

  /// A new state directory for a `qna`, removed when the test process exits (a test run
  /// makes dozens, and its processes may use them until the end).
  public static func freshDirectory() -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("qna-test-state-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    FreshDirectories.add(directory)
    return directory
  }

  public var events: [Event] { output.withLock { $0.events } }
  public var pid: pid_t { child.pid }
  /// Everything printed on stdout so far, as bytes arrived (for checks on raw bytes).
  public var rawOutput: String { events.map(\.raw).joined(separator: "\n") }
  /// Stderr, once the process has closed it.
  public var stderr: String { errors.withLock { $0 ?? "" } }

  /// A line to its stdin; lost (the test then fails on what it waits for) if it has exited.
  public func write(_ line: String) { try? child.stdin.write(contentsOf: Data((line + "\n").utf8)) }
  public func closeInput() throws { try child.stdin.close() }

  /// The `index`-th event named `name` (0 for the first), waiting up to `seconds` for it.
  public func waitFor(
    _ name: String, occurrence index: Int = 0, seconds: Double = 15,
    where predicate: @Sendable (Event) -> Bool = { _ in true }
  ) async throws -> Event {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let (matches, ended) = output.withLock { state in
        (state.events.filter { $0.name == name && predicate($0) }, state.ended)
      }
      if matches.count > index { return matches[index] }
      if ended { break }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw HeadlessTestError.missing(name, events.map(\.raw).joined(separator: "\n") + stderr)
  }

  /// The exit status, waiting for it on another thread.
  public func exitStatus() async -> Int32 {
    let child = self.child
    let status = await onOwnThread { child.wait() }
    // Let the readers reach end of file.
    for _ in 0..<200 where !output.withLock({ $0.ended }) || errors.withLock({ $0 == nil }) {
      try? await Task.sleep(for: .milliseconds(10))
    }
    return status
  }

  public func interrupt() { kill(child.pid, SIGINT) }
}

public enum HeadlessTestError: Error, CustomStringConvertible {
  case missing(String, String)

  public var description: String {
    switch self {
    case .missing(let name, let seen): "no \"\(name)\" event; output was:\n\(seen)"
    }
  }
}
