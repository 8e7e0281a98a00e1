import Foundation

/// The built `qna-server` as a child process, for end-to-end tests: started on a free port
/// (or a given one), killed like an operator would, restarted on the same database.
public final class QnAServerProcess: Sendable {
  public let port: Int
  public let child: ChildProcess

  public static var path: String { BuiltProducts.path("qna-server") }

  /// Starts it and waits for "listening on ws://127.0.0.1:PORT/socket". `environment` is
  /// added to this process's own; `wrapper` runs it through another command (`prlimit …`).
  public init(
    _ arguments: [String], environment: [String: String] = [:], wrapper: [String] = []
  ) async throws {
    let child =
      wrapper.isEmpty
      ? try ChildProcess(Self.path, arguments, environment: environment)
      : try ChildProcess(
        wrapper[0], Array(wrapper.dropFirst()) + [Self.path] + arguments,
        environment: environment)
    let line = await onOwnThread { child.readStdoutLine() }
    guard line.hasPrefix("listening on ws://127.0.0.1:"),
      let port = Int(line.dropFirst(28).prefix { $0.isNumber })
    else {
      child.stop()
      let errors = await onOwnThread { child.stderr.readDataToEndOfFile() }
      throw PeerError.noPort("qna-server: " + String(decoding: errors, as: UTF8.self))
    }
    child.keepErrorsDiscardOutput()
    self.child = child
    self.port = port
  }

  public var url: String { "ws://127.0.0.1:\(port)/socket" }

  /// A loopback port that was free a moment ago and has no server now: where a test's client
  /// finds nobody, until the test starts a server there.
  public static func unusedPort() async throws -> Int {
    let placeholder = try await QnAServerProcess(["--port", "0", "--db", ":memory:"])
    placeholder.stop()
    return placeholder.port
  }

  /// Its log so far (stderr).
  public var log: String { child.errorsSoFar }

  public func http(
    _ method: String, _ path: String, body: String = "", headers: [String: String] = [:]
  ) async throws -> HTTPResponse {
    let port = self.port
    return try await onOwnThread {
      try httpRequest(method, port: port, path: path, body: body, headers: headers)
    }
  }

  /// The questions in its database, as `GET /api/questions` lists them.
  public func questions() async throws -> [[String: Any]] {
    let body = try await http("GET", "/api/questions").body
    return try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]] ?? []
  }

  /// SIGKILL: no chance to close anything.
  public func kill9() async {
    kill(child.pid, SIGKILL)
    _ = await onOwnThread { self.child.wait() }
  }

  public func stop() { child.stop() }
}
