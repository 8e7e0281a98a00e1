import Hummingbird

/// Answers 421 to a request whose `Host` is not a loopback name. A page on another site that
/// rebinds its own name to 127.0.0.1 still sends its own name as `Host`.
struct LoopbackHostOnly<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    // HTTP/1's Host header arrives as the request's authority.
    guard let host = request.head.authority, !Self.isLoopback(host)
    else { return try await next(request, context) }
    return Response(status: .misdirectedRequest)
  }

  static func isLoopback(_ authority: String) -> Bool {
    var name = Substring(authority)
    if name.hasPrefix("["), let end = name.firstIndex(of: "]") {
      name = name[name.index(after: name.startIndex)..<end]
    } else if let colon = name.lastIndex(of: ":") {
      name = name[..<colon]
    }
    return name == "localhost" || name == "::1" || name.hasPrefix("127.")
  }
}
