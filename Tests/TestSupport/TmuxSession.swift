import Foundation
import Synchronization

/// A tmux server of our own with one pane running a shell, driven the way a person uses a
/// terminal: keys in with `send-keys`, the screen out with `capture-pane`. Its own socket
/// name keeps it apart from any other tmux; `kill` (or deinit) ends that server only.
public final class TmuxSession: Sendable {
  public let socketName: String
  private static let counter = Atomic(0)

  /// Starts `bash` (no rc files) in a `columns`×`rows` pane, with `environment`.
  public init(columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
    socketName = "qna-test-\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)"
    // LANGUAGE would outweigh a test's LC_ALL=C.UTF-8 (glibc ignores it only in "C"): the
    // screens the tests expect are English unless a test asks for a language.
    let variables = (["HISTFILE": "/dev/null", "LANGUAGE": ""].merging(environment) { $1 })
      .flatMap { ["-e", "\($0.key)=\($0.value)"] }
    try tmux(
      ["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "main"] + variables
        + ["bash --norc --noprofile"])
  }

  deinit { kill() }

  /// Runs a tmux command against this server; returns its stdout.
  @discardableResult
  public func tmux(_ arguments: [String]) throws -> String {
    let child = try ChildProcess(
      "/usr/bin/env", ["tmux", "-L", socketName, "-f", "/dev/null"] + arguments)
    try child.stdin.close()
    let output = child.stdout.readDataToEndOfFile()
    let errors = child.stderr.readDataToEndOfFile()
    let status = child.wait()
    guard status == 0 else {
      throw TmuxError.failed(arguments, status, String(decoding: errors, as: UTF8.self))
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Named keys, as tmux spells them: "Enter", "C-c", "F1", "PPage", "Escape".
  public func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "main"] + keys) }

  /// Literal text, as if typed.
  public func type(_ text: String) throws {
    // `--`: text starting with a dash is text, not a flag.
    try tmux(["send-keys", "-t", "main", "-l", "--", text])
  }

  /// Types a shell command and presses Enter.
  public func run(_ command: String) throws {
    try type(command)
    try press("Enter")
  }

  /// The visible screen, one line per row (trailing blanks trimmed by tmux); with
  /// `joinedLines`, lines the terminal wrapped come back whole.
  public func screen(joinedLines: Bool = false) throws -> String {
    try tmux(["capture-pane", "-t", "main", "-p"] + (joinedLines ? ["-J"] : []))
  }

  /// Where the terminal's cursor is (what screen readers and braille displays follow).
  public func cursor() throws -> (x: Int, y: Int) {
    let text = try tmux(["display", "-p", "-t", "main", "#{cursor_x},#{cursor_y}"])
    let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard numbers.count == 2 else { throw TmuxError.failed(["display"], 0, text) }
    return (numbers[0], numbers[1])
  }

  /// The rows drawn in reverse video, top to bottom (a list's selection).
  public func reverseRows() throws -> [Int] {
    let screen = try tmux(["capture-pane", "-t", "main", "-p", "-e"])
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
    return lines.indices.filter { index in
      // An SGR sequence with 7 among its parameters.
      lines[index].split(separator: "\u{1B}[").dropFirst().contains { sequence in
        guard let end = sequence.firstIndex(of: "m") else { return false }
        return sequence[..<end].split(separator: ";").contains("7")
      }
    }
  }

  public func resize(columns: Int, rows: Int) throws {
    try tmux(["resize-window", "-t", "main", "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// Polls the screen until `predicate` holds; throws with the last screen if it never does,
  /// and with `evidence` (the processes' logs, read only then) after it.
  @discardableResult
  public func waitFor(
    _ what: String, seconds: Double = 15, interval: Duration = .milliseconds(20),
    joinedLines: Bool = false, evidence: @autoclosure () -> String = "",
    _ predicate: @escaping @Sendable (String) -> Bool
  ) async throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var last = ""
    while true {
      last = try await onOwnThread { try self.screen(joinedLines: joinedLines) }
      if predicate(last) { return last }
      guard Date() < deadline else {
        let logs = evidence()
        throw TmuxError.timedOut(what, logs.isEmpty ? last : last + "\n" + logs)
      }
      try await Task.sleep(for: interval)
    }
  }

  /// The processes the pane's shell is running (its children), by PID.
  public func commandsRunning() throws -> [pid_t] {
    let shell = try tmux(["list-panes", "-t", "main", "-F", "#{pane_pid}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> pid_t? in
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let afterName = stat.range(of: ") ", options: .backwards)
      else { return nil }
      // "pid (name) state ppid ...": the parent is the second field after the name.
      let fields = stat[afterName.upperBound...].split(separator: " ")
      return fields.count > 1 && String(fields[1]) == shell ? pid : nil
    }
  }

  /// Ends this tmux server and everything running in it.
  public func kill() { _ = try? tmux(["kill-server"]) }
}

public enum TmuxError: Error, CustomStringConvertible {
  case failed([String], Int32, String)
  case timedOut(String, String)

  public var description: String {
    switch self {
    case .failed(let arguments, let status, let errors):
      "tmux \(arguments.joined(separator: " ")) exited \(status): \(errors)"
    case .timedOut(let what, let screen): "timed out waiting for \(what); the screen:\n\(screen)"
    }
  }
}
