import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import QnAPages
import ZlibCompression

/// The pages' scripts and style sheets, as files of the server's own origin: the
/// Content-Security-Policy lets no inline one run. Open to all, like the login form: they
/// hold no data, and a browser fetches them before it logs in.
struct AssetController: Sendable {
  func addRoutes(to router: some RouterMethods<ServerRequestContext>) {
    for (path, asset) in StaticAsset.all {
      router.get(RouterPath(path)) { request, _ in asset.response(to: request) }
    }
  }
}

/// A file the server serves as it was built, with a strong ETag made once from its bytes.
/// `Cache-Control: no-cache` has the browser ask again on every load, and `If-None-Match`
/// answers it with a 304 and no body while the bytes are the same: a reload costs a round
/// trip, not the file, and a new build is seen at once. A client that accepts gzip gets the
/// file compressed once for all (a phone's first load on a hall's Wi-Fi is a third of it),
/// under an ETag of its own, as RFC 9110 §8.8.3 asks of another representation.
package struct StaticAsset: Sendable {
  struct Variant: Sendable {
    let body: ByteBuffer
    /// `"…"`: the first 128 bits of the bytes' SHA-256, the same on every instance of a build.
    let eTag: String

    init(_ bytes: [UInt8]) {
      body = ByteBuffer(bytes: bytes)
      eTag =
        "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined()
        + "\""
    }
  }

  let type: String
  let identity: Variant
  /// `nil` when compressing saves nothing.
  let gzipped: Variant?

  init(_ text: String, type: String) {
    self.type = type
    let bytes = Array(text.utf8)
    identity = Variant(bytes)
    let compressed = Gzip.compress(bytes)
    gzipped = compressed.count < bytes.count ? Variant(compressed) : nil
  }

  /// Made when first asked for, once per process: `/assets/NAME` for each page asset.
  static let all: [(path: String, asset: StaticAsset)] = PageAssets.served.map { asset in
    ("/assets/\(asset.name)", StaticAsset(asset.text, type: asset.type))
  }

  func response(to request: Request) -> Response {
    let compressed = gzipped.flatMap {
      Self.acceptsGzip(request.headers[values: .acceptEncoding].joined(separator: ",")) ? $0 : nil
    }
    let variant = compressed ?? identity
    var headers: HTTPFields = [
      .cacheControl: "no-cache", .eTag: variant.eTag, .vary: "Accept-Encoding",
    ]
    if let asked = request.headers[.ifNoneMatch], Self.matches(asked, variant.eTag) {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = type
    if compressed != nil { headers[.contentEncoding] = "gzip" }
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: variant.body))
  }

  /// Whether an `Accept-Encoding` value (every such field, joined with commas) takes gzip:
  /// named (or `x-gzip`, or `*`) with a weight above zero (RFC 9110 §12.5.3).
  package static func acceptsGzip(_ field: String) -> Bool {
    var named: Bool?
    var any: Bool?
    for item in field.split(separator: ",") {
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let coding = parts.first?.lowercased(), !coding.isEmpty else { continue }
      let weight =
        parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }
        .flatMap { Double($0.dropFirst(2)) } ?? 1
      switch coding {
      case "gzip", "x-gzip": named = (named ?? false) || weight > 0
      case "*": any = weight > 0
      default: break
      }
    }
    return named ?? any ?? false
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
