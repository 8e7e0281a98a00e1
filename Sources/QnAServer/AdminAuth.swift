import Foundation
import Hummingbird

/// With an admin token set, presenter routes need it: as `Authorization: Bearer TOKEN`, or
/// as the session cookie the login form sets. Browsers asking for a page are sent to the login
/// form; tools get 401. Wrong bearer tokens are throttled per client address.
struct AdminAuth<Context: RequestContext & RemoteAddressRequestContext>: RouterMiddleware {
  static var cookieName: String { "qna_session" }
  let token: String
  let sessions: PresenterSessions
  let throttle: LoginThrottle
  let addresses: ClientAddress

  enum Credentials: Equatable {
    case none
    case bearer(String)
    case session(String)
    /// The session cookie more than once: which one was meant cannot be known.
    case ambiguous
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    switch Self.credentials(of: request) {
    case .bearer(let offered):
      let address = addresses.of(request, peer: context.remoteAddress)
      guard await throttle.judge(address, correct: ConstantTime.equal(offered, token)) else {
        return Self.unauthorized
      }
      return try await next(request, context)
    case .session(let id) where sessions.isValid(id):
      return try await next(request, context)
    case .none, .session, .ambiguous:
      if request.method == .get, request.headers[.accept]?.contains("text/html") == true {
        return Response.redirect(to: "/login", type: .normal)
      }
      return Self.unauthorized
    }
  }

  static var unauthorized: Response {
    Response(
      status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"qna presenter\""])
  }

  /// Every value of the session cookie in these `Cookie` header lines (more than one is
  /// ambiguous: the caller refuses it).
  static func sessionCookies(in lines: [String], named name: String = cookieName) -> [Substring] {
    lines.flatMap { line in
      line.split(separator: ";").compactMap { pair -> Substring? in
        let trimmed = pair.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else {
          return nil
        }
        return trimmed[trimmed.index(after: equals)...]
      }
    }
  }

  static func credentials(of request: Request, cookie: String = cookieName) -> Credentials {
    if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
      return .bearer(String(header.dropFirst(7)))
    }
    let values = sessionCookies(in: request.headers[values: .cookie], named: cookie)
    switch values.count {
    case 0: return .none
    case 1: return values[0].isEmpty ? .none : .session(String(values[0]))
    default: return .ambiguous
    }
  }
}
