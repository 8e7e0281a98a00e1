import HTTPTypes
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import ServiceLifecycle

/// Requests handed straight to an application's responder, as a server would after parsing
/// them: the routes and their middleware, with no port bound and no HTTP client. (What
/// HummingbirdTesting's router mode does, written here so that the build does not compile
/// AsyncHTTPClient, HTTP/2 and the rest that its other modes bring.) The application's
/// services run around the requests, as they do around a server.
struct InProcessRouter<App: ApplicationProtocol> {
  let app: App

  /// Runs `requests` with the application's services started, stopping them after.
  func run<Value: Sendable>(_ requests: @Sendable (Client) async throws -> Value)
    async throws -> Value
  {
    let client = Client(responder: try await app.responder, logger: app.logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      let (started, startedNow) = AsyncStream.makeStream(of: Void.self)
      let services = ServiceGroup(
        configuration: .init(
          services: app.services + [StartedSignal(started: startedNow)],
          gracefulShutdownSignals: [], logger: app.logger))
      group.addTask { try await services.run() }
      // As the application runs them: the services started (the store's among them, which
      // closes the store however the requests end), then what runs before the server.
      await started.first { _ in true }
      do {
        for process in app.processesRunBeforeServerStart { try await process() }
        let value = try await requests(client)
        await services.triggerGracefulShutdown()
        try await group.next()  // a service's failure fails the test
        return value
      } catch {
        await services.triggerGracefulShutdown()
        throw error
      }
    }
  }

  struct Client: Sendable {
    let responder: App.Responder
    let logger: Logger

    func execute(
      uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> InProcessResponse {
      var headers = headers
      if let body { headers[.contentLength] = String(body.readableBytes) }
      let request = Request(
        head: .init(
          method: method, scheme: "http", authority: "localhost", path: uri,
          headerFields: headers),
        body: RequestBody(buffer: body ?? ByteBuffer()))
      let context = App.Responder.Context(
        source: .init(channel: NIOAsyncTestingChannel(), logger: logger))
      // A route that throws is answered as the server answers it.
      let response =
        (try? await responder.respond(to: request, context: context))
        ?? Response(status: .internalServerError)
      let collected = CollectedBody()
      try await response.body.write(collected)
      return InProcessResponse(
        head: response.head, body: collected.bytes.withLockedValue { $0 })
    }
  }
}

/// A response with its body read whole.
struct InProcessResponse {
  let head: HTTPResponse
  let body: ByteBuffer
  var status: HTTPResponse.Status { head.status }
  var headers: HTTPFields { head.headerFields }
}

/// Gathers a response body's buffers.
private struct CollectedBody: ResponseBodyWriter {
  let bytes = NIOLockedValueBox(ByteBuffer())

  func write(_ buffer: ByteBuffer) async throws {
    bytes.withLockedValue { _ = $0.writeImmutableBuffer(buffer) }
  }

  func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Says that the service group has started every service before it.
private struct StartedSignal: Service {
  let started: AsyncStream<Void>.Continuation

  func run() async throws {
    started.finish()
    try? await gracefulShutdown()
  }
}
