import Hummingbird
import QnAGuards

/// In front of the session-admin routes (`/api/sessions…`, `/api/logins`) of a server without
/// an admin token: only a client on this host may use them. Without a token every presenter
/// route is open to whoever reaches the server, which `--allow-public` accepts for the
/// default room; listing every session's join code and token, deleting sessions or ending
/// logins it does not open to the network. Behind a `--trusted-proxy`, the client is the
/// address the proxy forwards.
struct LoopbackAdminGate: RouterMiddleware {
  typealias Context = ServerRequestContext
  let addresses: ClientAddress

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let client = addresses.of(request, peer: context.remoteAddress)
    guard LoopbackHost.isLoopback(bindAddress: client) else {
      throw HTTPError(
        .forbidden,
        message: "Session administration needs --admin-token, or a client on the server's host.")
    }
    return try await next(request, context)
  }
}
