import Foundation
import Logging
import QnA
import QnAGuards
import QnARoom
import QnAServer
import QnAStore
import QnAStoreLocation
import QnAStorePostgres
import QnAStoreSQLite
import RFC6455
import Synchronization
import TestSupport
import WebSocketClient

/// A `qna-server` in this process on a free loopback port, with an in-memory database
/// unless told otherwise; stopped by cancellation.
final class ServerUnderTest: Sendable {
  let port: Int
  private let service: Task<Void, any Error>
  /// The server's store, to check what it holds.
  let store: QuestionStore

  static var quietLogger: Logger {
    var logger = Logger(label: "qna-server-test")
    logger.logLevel = .critical
    return logger
  }

  init(
    environment: ServerEnvironment = ServerEnvironment(), logger: Logger = quietLogger,
    _ adjust: (inout ServerConfiguration) -> Void = { _ in }
  ) async throws {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.database = ":memory:"
    adjust(&configuration)
    let server = try QnAServerApp(
      configuration: configuration, environment: environment, logger: logger)
    store = server.rooms.main.store
    let ready = AsyncStream<Int>.makeStream()
    service = Task {
      // A server that fails to start (its database down) ends the wait for its port.
      defer { ready.continuation.finish() }
      try await server.run { port in
        ready.continuation.yield(port)
        ready.continuation.finish()
      }
    }
    var ports = ready.stream.makeAsyncIterator()
    port = await ports.next() ?? 0
  }

  var socketURL: String { "ws://127.0.0.1:\(port)/socket" }

  func http(
    _ method: String, _ path: String, body: String = "", headers: [String: String] = [:]
  ) async throws -> HTTPResponse {
    let port = self.port
    return try await onOwnThread {
      try httpRequest(method, port: port, path: path, body: body, headers: headers)
    }
  }

  /// `request` exactly as written, Host header and all (or none).
  func raw(_ request: String, headOnly: Bool = false) async throws -> HTTPResponse {
    let port = self.port
    return try await onOwnThread { try rawHTTPRequest(port: port, request, headOnly: headOnly) }
  }

  func stop() async {
    service.cancel()
    _ = try? await service.value
  }
}

/// An attendee's socket, on the project's own WebSocket client, with every event kept so a
/// test can wait for the one it expects.
final class Attendee: Sendable {
  let client: WebSocketClient
  private let log = EventLog()
  private let reader: Task<Void, Never>

  init(_ url: String, configuration: ClientConfiguration = ClientConfiguration(pingInterval: nil))
    throws
  {
    client = WebSocketClient(url: try WebSocketURL(url), configuration: configuration)
    client.start()
    let events = client.events
    reader = Task { [log] in
      for await event in events { log.events.withLock { $0.append(event) } }
    }
  }

  var events: [ClientEvent] { log.events.withLock { $0 } }

  /// Every message received so far, decoded (undecodable ones as errors).
  var messages: [Result<WireMessage, WireDecodingError>] {
    events.compactMap { event in
      guard case .message(let message) = event else { return nil }
      return Result { () throws(WireDecodingError) in try WireCodec().decode(message.data) }
    }
  }

  /// Waits until `predicate` holds for some event, and returns it.
  @discardableResult
  func waitFor(
    _ what: String, seconds: Double = 10, _ predicate: @Sendable (ClientEvent) -> Bool
  ) async throws -> ClientEvent {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let event = events.first(where: predicate) { return event }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw ServerTestError.timedOut(what, events)
  }

  /// The `index`-th decoded message matching `predicate`.
  func waitForMessage(
    _ what: String, occurrence index: Int = 0, seconds: Double = 10,
    _ predicate: @Sendable (WireMessage) -> Bool = { _ in true }
  ) async throws -> WireMessage {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let matches = messages.compactMap { try? $0.get() }.filter(predicate)
      if matches.count > index { return matches[index] }
      try await Task.sleep(for: .milliseconds(10))
    }
    throw ServerTestError.timedOut(what, events)
  }

  func handshake() async throws -> UUID {
    try await handshakeMessage().id
  }

  func handshakeMessage() async throws -> Handshake {
    let message = try await waitForMessage("handshake") {
      if case .handshake = $0 { true } else { false }
    }
    guard case .handshake(let body) = message else { throw ServerTestError.unexpected(message) }
    return body
  }

  func response(occurrence index: Int = 0) async throws -> QuestionResponse {
    let message = try await waitForMessage("questionResponse", occurrence: index) {
      if case .questionResponse = $0 { true } else { false }
    }
    guard case .questionResponse(let body) = message else {
      throw ServerTestError.unexpected(message)
    }
    return body
  }

  func disconnect() async throws -> Disconnect {
    let event = try await waitFor("disconnect") {
      if case .disconnected = $0 { true } else { false }
    }
    guard case .disconnected(let reason) = event else { throw ServerTestError.timedOut("", []) }
    return reason
  }

  func ask(_ content: String, as id: UUID, token: UUID? = nil, text: Bool = false) async throws {
    let bytes = WireCodec().encode(
      .newQuestion(NewQuestion(id: id, content: content, token: token)))
    if text {
      try await client.send(text: String(decoding: bytes, as: UTF8.self))
    } else {
      try await client.send(binary: bytes)
    }
  }

  func send(raw text: String) async throws { try await client.send(text: text) }

  func close() async {
    await client.close()
    await reader.value
  }
}

final class EventLog: Sendable {
  let events = Mutex<[ClientEvent]>([])
}

enum ServerTestError: Error, CustomStringConvertible {
  case timedOut(String, [ClientEvent])
  case unexpected(WireMessage)

  var description: String {
    switch self {
    case .timedOut(let what, let events): "no \(what); events: \(events)"
    case .unexpected(let message): "unexpected \(message)"
    }
  }
}
