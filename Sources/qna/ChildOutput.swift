import Glibc

/// A helper program's short answer on stdout, with posix_spawn rather than Foundation's
/// Process (which would link all of Foundation and ICU into qna).
enum ChildOutput {
  /// Runs `arguments` (found on PATH) with stdin and stderr on /dev/null; its stdout when it
  /// exits 0 within `limit`, else nil (killed when it is late). At most 4 KiB are kept.
  static func read(_ arguments: [String], within limit: Duration) -> String? {
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else { return nil }
    // Close-on-exec: the child gets the write end only as its stdout, so EOF comes when it ends.
    for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    defer { close(pipeEnds[0]) }
    guard let child = spawn(arguments, stdout: pipeEnds[1]) else {
      close(pipeEnds[1])
      return nil
    }
    close(pipeEnds[1])
    let deadline = ContinuousClock.now + limit
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 512)
    while output.count < 4096 {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { break }
      var ready = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
      let milliseconds = min((left / .milliseconds(1)).rounded(.up), Double(Int32.max))
      if poll(&ready, 1, Int32(milliseconds)) <= 0 { continue }
      let count = Glibc.read(pipeEnds[0], &chunk, chunk.count)
      if count <= 0 { break }
      output += chunk[..<count]
    }
    guard let status = exitStatus(of: child, until: deadline), status == 0 else { return nil }
    return String(decoding: output, as: UTF8.self)
  }

  private static func spawn(_ arguments: [String], stdout: Int32) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var child: pid_t = 0
    guard posix_spawnp(&child, arguments[0], &actions, nil, argv, environ) == 0 else {
      return nil
    }
    return child
  }

  /// The child's exit status once it ends, or nil when it is still running at `deadline`
  /// (then it is killed, and reaped if it dies within a second more), was ended by a signal,
  /// or cannot be waited for.
  private static func exitStatus(of child: pid_t, until deadline: ContinuousClock.Instant)
    -> Int32?
  {
    var status: Int32 = 0
    var killed = false
    while true {
      let reaped = waitpid(child, &status, WNOHANG)
      if reaped == child { break }
      if reaped < 0 && errno != EINTR { return nil }
      if ContinuousClock.now >= deadline + (killed ? .seconds(1) : .zero) {
        if killed { return nil }  // a zombie rather than a qna that never starts
        kill(child, SIGKILL)
        killed = true
      }
      usleep(10_000)
    }
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    return !killed && status & 0x7f == 0 ? (status >> 8) & 0xff : nil
  }
}
