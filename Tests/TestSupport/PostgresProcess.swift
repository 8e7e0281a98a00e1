import Foundation
import Synchronization

/// A throwaway PostgreSQL server (Debian's package, which `make test` installs) on a free
/// loopback port, its cluster in a temporary directory: `initdb` and `pg_ctl` run as the
/// `postgres` user (PostgreSQL refuses to run as root), clients connect as `postgres` without
/// a password (`trust`, loopback only). Stopped by its PID when released, or at exit for the
/// process-wide `shared` one.
public final class PostgresProcess: Sendable {
  public let port: Int
  let directory: URL
  let binaries: String

  /// One server for the whole test process, each test in a database of its own (`database()`).
  public static func shared() throws -> PostgresProcess {
    try sharedServer.withLock { server in
      if let server { return server }
      let started = try PostgresProcess()
      server = started
      atexit {
        PostgresProcess.sharedServer.withLock { server in
          server?.stop()
          server?.remove()
        }
      }
      return started
    }
  }
  private static let sharedServer = Mutex<PostgresProcess?>(nil)

  public init() throws {
    (binaries, directory, port) = try Self.prepareDirectory()
    try runAsPostgres(
      "initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
    try start()
  }

  /// A hot standby of `primary`, streaming from it (`pg_basebackup -R`), on a port of its
  /// own. initdb's `trust` lines let loopback replication in.
  public init(standbyOf primary: PostgresProcess) throws {
    (binaries, directory, port) = try Self.prepareDirectory()
    try runAsPostgres(
      "pg_basebackup",
      [
        "-h", "127.0.0.1", "-p", "\(primary.port)", "-U", "postgres", "-D", data, "-R",
        "-X", "stream", "--checkpoint=fast", "--no-sync",
      ])
    try start()
  }

  private static func prepareDirectory() throws -> (String, URL, Int) {
    guard
      let version = try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")
        .sorted().last,
      FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb")
    else { throw PostgresProcessError.missing }
    let directory = URL(fileURLWithPath: "/tmp/qna-pg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    guard let owner = getpwnam("postgres")?.pointee else { throw PostgresProcessError.noUser }
    chown(directory.path, owner.pw_uid, owner.pw_gid)
    return ("/usr/lib/postgresql/\(version)/bin", directory, try ProxyProcess.unusedPort())
  }

  /// Makes every commit wait until a standby has it on disk (`synchronous_standby_names`,
  /// `synchronous_commit = on`, the default): nothing acknowledged is lost in a failover.
  public func requireSynchronousStandby() throws {
    try runAsPostgres(
      "psql",
      [
        "-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-c",
        "ALTER SYSTEM SET synchronous_standby_names = '*'", "-c", "SELECT pg_reload_conf()",
      ])
  }

  /// A standby becomes the primary (`pg_ctl promote`, waiting until it takes writes).
  public func promote() throws {
    try runAsPostgres("pg_ctl", ["-D", data, "-w", "promote"])
  }

  /// The postmaster killed with SIGKILL, as a machine that dies: no shutdown, no goodbye.
  public func kill9() {
    let pid = self.pid
    guard pid > 0, kill(pid, SIGKILL) == 0 else { return }
    for _ in 0..<500 where kill(pid, 0) == 0 { usleep(20_000) }
  }

  deinit {
    stop()
    remove()
  }

  var data: String { directory.appendingPathComponent("data").path }

  /// A URL for a database of its own, created now.
  public func database(_ name: String = "t\(UUID().uuidString.prefix(8).lowercased())") throws
    -> String
  {
    try runAsPostgres("createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", name])
    return url(name)
  }

  public func url(_ database: String) -> String {
    "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable"
  }

  /// Starts the server (again, after `stop` or `kill`), on the same port and data.
  public func start() throws {
    try runAsPostgres(
      "pg_ctl",
      [
        "-D", data, "-l", directory.appendingPathComponent("server.log").path, "-w", "-o",
        "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c max_connections=300",
        "start",
      ])
  }

  /// The postmaster's PID, from its pid file (0 when it is not running).
  public var pid: pid_t {
    let file = URL(fileURLWithPath: data).appendingPathComponent("postmaster.pid")
    guard let text = try? String(contentsOf: file, encoding: .utf8),
      let first = text.split(separator: "\n").first, let pid = pid_t(first)
    else { return 0 }
    return pid
  }

  /// Stops the server by its PID, with PostgreSQL's fast shutdown (SIGINT): every client's
  /// connection is cut at once, and nothing committed is lost.
  public func stop() {
    let pid = self.pid
    guard pid > 0, kill(pid, SIGINT) == 0 else { return }
    for _ in 0..<500 where kill(pid, 0) == 0 { usleep(20_000) }
  }

  public var log: String {
    (try? String(
      contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
  }

  /// Removes the cluster: the server must be stopped.
  public func remove() { try? FileManager.default.removeItem(at: directory) }

  /// Runs one of PostgreSQL's programs to its end, its output in a file: the server that
  /// `pg_ctl start` leaves running would hold a pipe open, and a reader would wait for ever.
  private func runAsPostgres(_ program: String, _ arguments: [String]) throws {
    let output = directory.appendingPathComponent("\(program).out").path
    let command =
      (["exec", "/usr/sbin/runuser", "-u", "postgres", "--", "\(binaries)/\(program)"]
      + arguments).map(Self.quoted).joined(separator: " ")
    let child = try ChildProcess(
      "/bin/sh", ["-c", "\(command) </dev/null >\(Self.quoted(output)) 2>&1"])
    guard child.wait() == 0 else {
      throw PostgresProcessError.failed(
        program, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }
  }

  private static func quoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

public enum PostgresProcessError: Error, CustomStringConvertible {
  case missing
  case noUser
  case failed(String, String)

  public var description: String {
    switch self {
    case .missing: "no PostgreSQL: run `make test`, which installs it (apt-get install postgresql)"
    case .noUser: "no postgres user: PostgreSQL's package makes it"
    case .failed(let program, let output): "\(program) failed: \(output)"
    }
  }
}
