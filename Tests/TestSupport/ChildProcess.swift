import Foundation
import Synchronization

/// A child process started with `posix_spawn`, with its standard streams on pipes, reaped
/// with `waitpid`. (Foundation's `Process` reaps children itself, and on Linux its exit
/// tracking lags by seconds and `waitUntilExit()` can hang in async tests.)
public final class ChildProcess: @unchecked Sendable {
  // The file descriptors are owned by this object and closed once; @unchecked because the
  // owning test is the only user.
  public let pid: pid_t
  public let stdin: FileHandle
  public let stdout: FileHandle
  public let stderr: FileHandle
  private var status: Int32?
  private static let spawnLock = Mutex(())
  private let keptErrors = Mutex("")

  /// `environment` entries are added to (or replace) this process's environment, less its
  /// proxy variables and admin token (`isInheritedSetting`): a test about them names the ones
  /// it wants, and no other test may go through a proxy the machine happens to have set.
  public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:])
    throws
  {
    // A child that died early must fail the test that writes to it, not kill the whole run
    // with SIGPIPE: writes to its stdin then fail with EPIPE instead.
    signal(SIGPIPE, SIG_IGN)
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    var errors: [Int32] = [0, 0]
    // Close-on-exec: a child spawned at the same moment by another test must not inherit
    // these pipes, or this child's output never reaches EOF. dup2 clears the flag on 0–2.
    // (pipe2 is not visible from Swift; the lock keeps sibling spawns out of the gap.)
    let created = Self.spawnLock.withLock { _ in
      [pipe(&input), pipe(&output), pipe(&errors)].allSatisfy { $0 == 0 }
        && (input + output + errors).allSatisfy { fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }
    }
    guard created else {
      throw ChildProcessError.spawnFailed(executable, errno)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    // Children inherit the spawning thread's blocked signals (test runners and NIO block
    // some): unblock everything and restore default handlers, so SIGTERM ends them.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    let merged = ProcessInfo.processInfo.environment.filter { !Self.isInheritedSetting($0.key) }
      .merging(environment) { $1 }
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for entry in envp { free(entry) } }
    var child: pid_t = 0
    let result = Self.spawnLock.withLock { _ in
      posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    }
    close(input[0])
    close(output[1])
    close(errors[1])
    guard result == 0 else {
      for fd in [input[1], output[0], errors[0]] { close(fd) }
      throw ChildProcessError.spawnFailed(executable, result)
    }
    pid = child
    stdin = FileHandle(fileDescriptor: input[1], closeOnDealloc: true)
    stdout = FileHandle(fileDescriptor: output[0], closeOnDealloc: true)
    stderr = FileHandle(fileDescriptor: errors[0], closeOnDealloc: true)
  }

  /// Variables of the user's shell that would change what the programs under test do: the
  /// proxies, and qna-server's admin token. Tests that want them pass them explicitly.
  static func isInheritedSetting(_ name: String) -> Bool {
    ["http_proxy", "https_proxy", "all_proxy", "no_proxy", "qna_admin_token"]
      .contains(name.lowercased())
  }

  /// `text` on stdin, then its end. A child that ended before reading it closed the pipe:
  /// that is not the test's failure (its status and output say what happened), where the
  /// non-throwing `FileHandle.write(_:)` made EPIPE a crash of the whole test process.
  public func feed(_ text: String) throws {
    try? stdin.write(contentsOf: Data(text.utf8))
    try stdin.close()
  }

  /// The next line of stdout, newline included; shorter if stdout ends first. Blocks.
  public func readStdoutLine() -> String {
    var bytes: [UInt8] = []
    while bytes.last != 0x0A, let byte = stdout.readData(ofLength: 1).first { bytes.append(byte) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Reads stdout and stderr to their end on threads of their own, keeping nothing: a
  /// chatty child must never block on a full pipe nobody reads.
  public func discardOutput() {
    for handle in [stdout, stderr] {
      Thread.detachNewThread {
        while !handle.availableData.isEmpty {}
      }
    }
  }

  /// Like `discardOutput`, but keeps stderr (a server's log) for `errorsSoFar`.
  public func keepErrorsDiscardOutput() {
    let stdout = self.stdout
    let stderr = self.stderr
    Thread.detachNewThread {
      while !stdout.availableData.isEmpty {}
    }
    // Weak: a strong capture would keep this object (and so the child, stopped on deinit)
    // alive until the child's stderr ends, which is never for a server nobody stops.
    Thread.detachNewThread { [weak self] in
      while case let chunk = stderr.availableData, !chunk.isEmpty {
        let text = String(decoding: chunk, as: UTF8.self)
        self?.keptErrors.withLock { $0 += text }
      }
    }
  }

  /// What stderr said so far (after `keepErrorsDiscardOutput`).
  public var errorsSoFar: String { keptErrors.withLock { $0 } }

  /// The exit status (128 + signal when killed), waiting for it.
  public func wait() -> Int32 {
    while status == nil { _ = poll(blocking: true) }
    return status!
  }

  /// The exit status if the child has exited, without waiting.
  public func poll(blocking: Bool = false) -> Int32? {
    if let status { return status }
    var raw: Int32 = 0
    let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
    guard result == pid else { return nil }
    status = raw & 0x7F == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
    return status
  }

  /// SIGTERM, then SIGKILL if it has not exited within five seconds.
  public func stop() {
    guard poll() == nil else { return }
    kill(pid, SIGTERM)
    for _ in 0..<500 {
      if poll() != nil { return }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    _ = wait()
  }

  deinit { stop() }
}

public enum ChildProcessError: Error, CustomStringConvertible {
  case spawnFailed(String, Int32)

  public var description: String {
    switch self {
    case .spawnFailed(let path, let code): "cannot start \(path): error \(code)"
    }
  }
}
