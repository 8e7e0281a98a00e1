import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import QnAPages

extension QnAServerApp {
  /// The pages' script and style sheet, as files of the server's own origin: the
  /// Content-Security-Policy lets no inline one run. Open to all, like the login form: they
  /// hold no data, and a browser fetches them before it logs in.
  func addAssetRoutes(to router: Router<ServerRequestContext>) {
    for (path, asset) in StaticAsset.all {
      router.get(RouterPath(path)) { request, _ in asset.response(to: request) }
    }
  }
}

/// A file the server serves as it was built, with a strong ETag made once from its bytes.
/// `Cache-Control: no-cache` has the browser ask again on every load, and `If-None-Match`
/// answers it with a 304 and no body while the bytes are the same: a reload costs a round
/// trip, not the file, and a new build is seen at once.
package struct StaticAsset: Sendable {
  let body: ByteBuffer
  let type: String
  /// `"…"`: the first 128 bits of the bytes' SHA-256, the same on every instance of a build.
  let eTag: String

  init(_ text: String, type: String) {
    body = ByteBuffer(string: text)
    self.type = type
    let digest = SHA256.hash(data: Data(text.utf8))
    eTag = "\"" + digest.prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
  }

  /// Made when first asked for, once per process: `/assets/NAME` for each page asset.
  static let all: [(path: String, asset: StaticAsset)] = PageAssets.all.map { asset in
    ("/assets/\(asset.name)", StaticAsset(asset.text, type: asset.type))
  }

  func response(to request: Request) -> Response {
    var headers: HTTPFields = [.cacheControl: "no-cache", .eTag: eTag]
    if let asked = request.headers[.ifNoneMatch], Self.matches(asked, eTag) {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = type
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
  }

  /// Whether an `If-None-Match` value (every such field, joined with commas) names `eTag`:
  /// `*`, or a list compared weakly (RFC 9110 §13.1.2), since a proxy that compresses the
  /// file (nginx's gzip) hands the browser `W/"…"` for it.
  package static func matches(_ field: String, _ eTag: String) -> Bool {
    field.split(separator: ",").contains { item in
      var tag = item.trimmingCharacters(in: .whitespaces)
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      return tag == eTag
    }
  }
}
