import Hummingbird
import QnAPages

/// A page as every controller sends it, in the language it was chosen for.
enum HTMLPage {
  /// Caches keep one per `Accept-Language`. `showsJoinAddress`: the page shows where to
  /// join, made from the request's host when no `--public-url` is given, so no shared cache
  /// may keep it for another (`private, no-store`).
  static func response(_ page: String, showsJoinAddress: Bool = false) -> Response {
    var headers: HTTPFields = [
      .contentType: "text/html; charset=utf-8", .vary: "Accept-Language",
    ]
    if showsJoinAddress { headers[.cacheControl] = "private, no-store" }
    return Response(
      status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
  }

  /// The catalogues the pages speak, loaded once (the terminal's, from the same place).
  static let languages = PageLanguages.found()

  /// The page's words in the browser's language.
  static func words(for request: Request) -> PageWords {
    languages.words(acceptLanguage: request.headers[.acceptLanguage])
  }
}
