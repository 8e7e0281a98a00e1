import Foundation
import Synchronization
import TestSupport

/// Instances of `qna-server` on one PostgreSQL behind Debian's nginx, configured as
/// docs/deploy/nginx.conf with one upstream line per instance; an instance can be restarted
/// on its port, as an operator's rolling restart does.
final class InstanceCluster: Sendable {
  /// The database servers, kept as long as the cluster.
  let databases: [PostgresProcess]
  let url: String
  let nginx: ProxyProcess
  let arguments: [String]
  private let running: Mutex<[QnAServerProcess]>

  /// On a PostgreSQL of its own.
  convenience init(count: Int = 3, arguments: [String]) async throws {
    let postgres = try PostgresProcess()
    try await self.init(
      count: count, url: try postgres.database("qna"), databases: [postgres],
      arguments: arguments)
  }

  init(count: Int = 3, url: String, databases: [PostgresProcess], arguments: [String])
    async throws
  {
    self.databases = databases
    self.url = url
    self.arguments = arguments
    var instances: [QnAServerProcess] = []
    for _ in 0..<count {
      instances.append(try await QnAServerProcess(["--port", "0", "--db", url] + arguments))
    }
    running = Mutex(instances)
    let example = try String(
      contentsOf: PeerProcess.packageRoot.appendingPathComponent("docs/deploy/nginx.conf"),
      encoding: .utf8)
    let upstreams = instances.map { "server 127.0.0.1:\($0.port);" }.joined(separator: "\n    ")
    nginx = try ProxyProcess.nginx { port in
      example.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
        .replacingOccurrences(of: "server 127.0.0.1:8080;", with: upstreams)
    }
  }

  var instances: [QnAServerProcess] { running.withLock { $0 } }
  var socket: String { "ws://127.0.0.1:\(nginx.port)/socket" }

  /// Stops instance `index` as systemd would (SIGTERM, waiting for it to exit), then starts
  /// it again on the same port and database; returns how long it was gone.
  func restart(_ index: Int) async throws -> Duration {
    let old = instances[index]
    let started = ContinuousClock.now
    await onOwnThread { old.stop() }
    let new = try await QnAServerProcess(
      ["--port", "\(old.port)", "--db", url] + arguments)
    running.withLock { $0[index] = new }
    return ContinuousClock.now - started
  }

  /// Every question, as the API lists them through nginx.
  func questions(headers: [String: String]) async throws -> [[String: Any]] {
    let listing = try await http("GET", "/api/questions?limit=1000", headers: headers)
    return try JSONSerialization.jsonObject(with: Data(listing.body.utf8)) as? [[String: Any]]
      ?? []
  }

  /// A request through nginx.
  func http(
    _ method: String, _ path: String, body: String = "", headers: [String: String] = [:]
  ) async throws -> HTTPResponse {
    let port = nginx.port
    return try await onOwnThread {
      try httpRequest(method, port: port, path: path, body: body, headers: headers)
    }
  }

  func stop() {
    for instance in instances { instance.stop() }
  }
}
