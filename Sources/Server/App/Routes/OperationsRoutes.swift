import Hummingbird
import QnARoom

/// What a load balancer, an orchestrator or a metrics scraper asks. Is the process alive
/// (`/healthz`), and can it serve, its database answering (`/readyz`)? Those are open to all,
/// like `/socket`: a probe carries no token, and the answers say nothing an attendee could
/// not learn by connecting. `/metrics` counts what the presenters see, so it is theirs
/// (`Authorization: Bearer TOKEN` from a scraper).
extension QnAServerApp {
  struct Health: ResponseEncodable, Sendable {
    let status: String
    /// Why the server is not ready, when it is not.
    var reason: String?
  }

  func addProbeRoutes(to router: Router<ServerRequestContext>) {
    router.get("/healthz") { _, _ in Health(status: "alive") }
    router.get("/readyz") { [store = rooms.main.store] _, _ -> EditedResponse<Health> in
      do {
        try await store.ping()
        return EditedResponse(status: .ok, response: Health(status: "ready"))
      } catch {
        return EditedResponse(
          status: .serviceUnavailable, response: Health(status: "unready", reason: "\(error)"))
      }
    }
  }

  func addMetricsRoute(to presenter: RouterGroup<ServerRequestContext>) {
    presenter.get("/metrics") { [metrics, sockets = rooms.main.sockets] _, _ -> Response in
      let text = metrics.exposition(openSockets: sockets.count)
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
  }
}
