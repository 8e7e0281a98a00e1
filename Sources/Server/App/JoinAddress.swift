import HTTPTypes
import Hummingbird
import NIOCore

/// The address people join a room at, for the pages and their QR codes: `--public-url`
/// when the operator gave one, else the one the request reached (through a trusted proxy,
/// the scheme and host it forwarded), else the server's own.
struct JoinAddress: Sendable {
  let publicURL: String?
  let addresses: ClientAddress
  /// `http://HOST:PORT` as the server listens, when a request names no host.
  let listening: String

  /// Scheme and authority, no slash at the end.
  func origin(of request: Request, peer: SocketAddress?) -> String {
    if let publicURL { return publicURL }
    let trusted = addresses.trustedProxies.contains(peer?.ipAddress ?? "")
    // The entry the trusted proxy added: the last, as for X-Forwarded-For (a client may send
    // the header itself, and a proxy that appends keeps what the client sent before its own).
    let forwarded = { (name: String) in
      trusted
        ? request.headers[HTTPField.Name(name)!]?.split(separator: ",").last.map {
          $0.trimmingCharacters(in: .whitespaces)
        } : nil
    }
    let scheme =
      forwarded("X-Forwarded-Proto").flatMap { $0.lowercased() == "https" ? "https" : nil }
      ?? "http"
    let host = forwarded("X-Forwarded-Host") ?? request.head.authority
    guard let host, Self.isHost(host) else { return listening }
    return "\(scheme)://\(host)"
  }

  /// A host, optionally with a port: letters, digits, dots, dashes, an IPv6 literal's
  /// brackets and colons. Anything else (a forged header's markup) is not used.
  static func isHost(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 255
      && text.unicodeScalars.allSatisfy {
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || ".-:[]".unicodeScalars.contains($0))
      }
  }

  /// A `--public-url` as given (`https://host[:port]`, a slash at the end allowed), without
  /// the slash; `nil` when it is not one. No path: the pages' assets are at the root.
  static func validPublicURL(_ text: String) -> String? {
    var url = text
    if url.hasSuffix("/") { url.removeLast() }
    for scheme in ["http://", "https://"] where url.lowercased().hasPrefix(scheme) {
      let host = String(url.dropFirst(scheme.count))
      return isHost(host) ? scheme + host : nil
    }
    return nil
  }

  /// The attendee page's address as people reach it, for a session (`code`) or the default
  /// room.
  func address(_ request: Request, peer: SocketAddress?, code: String?) -> String {
    origin(of: request, peer: peer) + Self.path(code: code)
  }

  /// The attendee page of a session (`code`) or of the default room.
  static func path(code: String?) -> String { code.map { "/s/\($0)/" } ?? "/room/" }
}
