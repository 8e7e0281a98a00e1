import HTTPTypes
import Hummingbird
import QnAGuards

/// Adds `SecurityHeaders` to every response, errors included.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = try error.response(from: request, context: context)
    }
    for (name, value) in SecurityHeaders.fields {
      if let field = HTTPField.Name(name) { response.headers[field] = value }
    }
    return response
  }
}
