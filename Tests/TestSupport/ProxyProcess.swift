import Foundation

/// A real proxy on a free loopback port, in a directory of its own, stopped by PID when the
/// object goes: Debian's tinyproxy (HTTP CONNECT) and dante (SOCKS5, no authentication), and
/// PyPI's pproxy (SOCKS5 with its own user list: dante checks system accounts). `make test`
/// installs all three.
public final class ProxyProcess: Sendable {
  public let port: Int
  private let child: ChildProcess
  private let directory: URL

  /// tinyproxy; with `credentials`, it wants them as Basic auth (and answers 407 without).
  /// `allowedClients` limits who may use it (tinyproxy's `Allow`): anyone else gets 403.
  public static func tinyproxy(
    credentials: (String, String)? = nil, allowedClients: String? = nil
  ) throws -> ProxyProcess {
    try ProxyProcess { port, directory in
      var config = """
        Port \(port)
        Listen 127.0.0.1
        Timeout 30
        MaxClients 64
        LogLevel Connect
        LogFile "\(directory.appendingPathComponent("proxy.log").path)"

        """
      if let (user, password) = credentials { config += "BasicAuth \(user) \(password)\n" }
      if let allowedClients { config += "Allow \(allowedClients)\n" }
      let file = directory.appendingPathComponent("tinyproxy.conf")
      try config.write(to: file, atomically: true, encoding: .utf8)
      return ("/usr/bin/tinyproxy", ["-d", "-c", file.path])
    }
  }

  /// dante's danted: SOCKS5 without authentication, for loopback clients and destinations.
  public static func dante() throws -> ProxyProcess {
    try ProxyProcess { port, directory in
      let config = """
        logoutput: stderr
        internal: 127.0.0.1 port = \(port)
        external: 127.0.0.1
        clientmethod: none
        socksmethod: none
        user.privileged: root
        user.unprivileged: nobody
        client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }
        socks pass { from: 127.0.0.0/8 to: 127.0.0.0/8 }
        socks block { from: 0.0.0.0/0 to: 0.0.0.0/0 }

        """
      let file = directory.appendingPathComponent("danted.conf")
      try config.write(to: file, atomically: true, encoding: .utf8)
      return (
        "/usr/sbin/danted",
        ["-f", file.path, "-p", directory.appendingPathComponent("danted.pid").path]
      )
    }
  }

  /// pproxy: SOCKS5 that wants this user name and password (asked on every connection).
  public static func pproxySOCKS5(user: String, password: String) throws -> ProxyProcess {
    try ProxyProcess { port, _ in
      let pproxy = PeerProcess.packageRoot.appendingPathComponent(".venv/bin/pproxy").path
      return (pproxy, ["-l", "socks5://127.0.0.1:\(port)#\(user):\(password)", "--auth", "0"])
    }
  }

  /// Debian's nginx as a reverse proxy, in a directory of its own: `site` (given the port to
  /// listen on) goes into the `http` block, beside what running unprivileged in that
  /// directory needs. The master runs in the foreground, so stopping it stops its workers.
  public static func nginx(site: @escaping (_ port: Int) -> String) throws -> ProxyProcess {
    try ProxyProcess { port, directory in
      let temporary = directory.appendingPathComponent("temp")
      for kind in ["body", "proxy", "fastcgi", "uwsgi", "scgi"] {
        let path = temporary.appendingPathComponent(kind)
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        // Workers run as nobody, when the tests run as root.
        chmod(path.path, 0o777)
      }
      let prefix = directory.path
      let configuration = """
        worker_processes 1;
        pid \(prefix)/nginx.pid;
        error_log stderr warn;
        events { worker_connections 1024; }
        http {
          access_log off;
          client_body_temp_path \(prefix)/temp/body;
          proxy_temp_path \(prefix)/temp/proxy;
          fastcgi_temp_path \(prefix)/temp/fastcgi;
          uwsgi_temp_path \(prefix)/temp/uwsgi;
          scgi_temp_path \(prefix)/temp/scgi;
        \(site(port))
        }
        """
      let file = directory.appendingPathComponent("nginx.conf")
      try configuration.write(to: file, atomically: true, encoding: .utf8)
      return ("/usr/sbin/nginx", ["-p", prefix, "-c", file.path, "-g", "daemon off;"])
    }
  }

  private init(
    _ command: (_ port: Int, _ directory: URL) throws -> (String, [String])
  ) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "qna-proxy-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    port = try Self.unusedPort()
    let (executable, arguments) = try command(port, directory)
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw ProxyProcessError.missing(executable)
    }
    child = try ChildProcess(executable, arguments)
    child.keepErrorsDiscardOutput()
    guard Self.waitUntilListening(port) else {
      child.stop()
      throw ProxyProcessError.notListening(executable, child.errorsSoFar)
    }
  }

  deinit {
    child.stop()
    try? FileManager.default.removeItem(at: directory)
  }

  /// What it logged so far: tinyproxy logs each CONNECT to its file, the others to stderr.
  public var log: String {
    let file = directory.appendingPathComponent("proxy.log")
    return (try? String(contentsOf: file, encoding: .utf8)) ?? child.errorsSoFar
  }

  public var url: String { "127.0.0.1:\(port)" }

  /// A port the kernel just handed out and nobody holds now.
  public static func unusedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ProxyProcessError.noPort }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw ProxyProcessError.noPort }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private static func waitUntilListening(_ port: Int) -> Bool {
    for _ in 0..<100 {
      if let fd = loopbackConnection(port: port) {
        close(fd)
        return true
      }
      usleep(100_000)
    }
    return false
  }
}

public enum ProxyProcessError: Error, CustomStringConvertible {
  case missing(String)
  case notListening(String, String)
  case noPort

  public var description: String {
    switch self {
    case .missing(let path):
      "no \(path): run `make test`, which installs the test proxies and nginx"
    case .notListening(let path, let log): "\(path) did not listen: \(log)"
    case .noPort: "no free loopback port"
    }
  }
}
