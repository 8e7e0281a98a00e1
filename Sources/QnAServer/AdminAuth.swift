import Foundation
import Hummingbird

/// With an admin token set, presenter routes need it: as `Authorization: Bearer TOKEN`, or
/// as the cookie the login form sets. Browsers asking for a page are sent to the login form;
/// tools get 401.
struct AdminAuth<Context: RequestContext>: RouterMiddleware {
  static var cookieName: String { "qna_admin" }
  let token: String

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if isAuthorized(request) { return try await next(request, context) }
    if request.method == .get, request.headers[.accept]?.contains("text/html") == true {
      return Response.redirect(to: "/login", type: .normal)
    }
    return Response(
      status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"qna presenter\""])
  }

  func isAuthorized(_ request: Request) -> Bool {
    if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
      Self.constantTimeEqual(String(header.dropFirst(7)), token)
    {
      return true
    }
    if let cookie = request.cookies[Self.cookieName]?.value {
      return Self.constantTimeEqual(cookie, token)
    }
    return false
  }

  /// Compares without an early exit, so response time does not reveal a matching prefix.
  static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = UInt8(x.count == y.count ? 0 : 1)
    for index in 0..<max(x.count, y.count) {
      difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
    }
    return difference == 0
  }
}
