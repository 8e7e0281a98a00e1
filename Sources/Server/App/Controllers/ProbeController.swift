import Hummingbird
import Logging
import QnARoom
import QnAStore

/// What a load balancer, an orchestrator or a metrics scraper asks. Is the process alive
/// (`/healthz`), and can it serve, its database answering (`/readyz`)? Those are open to all,
/// like `/socket`: a probe carries no token, and the answers say nothing an attendee could
/// not learn by connecting. `/metrics` counts what the presenters see, so it is theirs
/// (`Authorization: Bearer TOKEN` from a scraper).
struct ProbeController: Sendable {
  let store: QuestionStore
  let sockets: SocketHub
  let logger: Logger

  struct Health: ResponseEncodable, Sendable {
    let status: String
    /// Why the server is not ready, when it is not.
    var reason: String?
  }

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/healthz") { _, _ in Health(status: "alive") }
    router.get("/readyz") { _, _ -> EditedResponse<Health> in
      if sockets.isDraining {
        return EditedResponse(
          status: .serviceUnavailable, response: Health(status: "unready", reason: "shutting down"))
      }
      do {
        try await store.ping()
        // Without its listening connection an instance misses the others' changes until it
        // is back: a balancer should send people elsewhere meanwhile.
        if store.health?.reading.listening == false {
          return EditedResponse(
            status: .serviceUnavailable,
            response: Health(status: "unready", reason: "database listener down"))
        }
        return EditedResponse(status: .ok, response: Health(status: "ready"))
      } catch {
        // The whole error (host, database and user names) goes to the operator's log only.
        logger.warning("not ready: \(error)")
        return EditedResponse(
          status: .serviceUnavailable,
          response: Health(status: "unready", reason: Self.probeReason(error)))
      }
    }
  }

  /// What an unauthenticated probe is told of a database failure: its kind, in a few fixed
  /// words, never the driver's message.
  static func probeReason(_ error: any Error) -> String {
    let detail = "\(error)".lowercased()
    if detail.contains("locked") || detail.contains("busy") { return "database locked" }
    if detail.contains("timed out") || detail.contains("timeout") || detail.contains("deadline")
      || detail.contains("did not answer")
    {
      return "database not answering"
    }
    if detail.contains("connect") || detail.contains("refused") || detail.contains("unreachable") {
      return "database unreachable"
    }
    return "database error"
  }

}

/// The counters a scraper reads, for the presenters only.
struct MetricsController: Sendable {
  let metrics: ServerMetrics
  let store: QuestionStore
  let sockets: SocketHub

  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    router.get("/metrics") { _, _ -> Response in
      let text = metrics.exposition(openSockets: sockets.count, store: store.health)
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
  }
}
