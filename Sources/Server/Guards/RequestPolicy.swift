import Foundation
import NIOCore
import NIOHTTP1

/// Who may send what, judged on each request's head before any route sees it, and for the
/// WebSocket upgrade too (which Hummingbird would only ever refuse with a bare 400).
package struct RequestPolicy: Sendable {
  /// No admin token guards the server: only loopback names may be in `Host`, against DNS
  /// rebinding.
  package var loopbackOnly: Bool
  /// Origins besides the server's own that may send state-changing requests, lower-cased,
  /// as `scheme://host[:port]`.
  package var allowedOrigins: Set<String>

  package init(loopbackOnly: Bool, allowedOrigins: Set<String> = []) {
    self.loopbackOnly = loopbackOnly
    self.allowedOrigins = allowedOrigins
  }

  package enum Verdict: Equatable {
    case pass
    case refuse(HTTPResponseStatus, String)
  }

  package func judge(_ head: HTTPRequestHead) -> Verdict {
    let hosts = head.headers["Host"]
    guard hosts.count == 1, let host = hosts.first, !host.isEmpty else {
      return .refuse(
        .badRequest, hosts.isEmpty ? "A Host header is required." : "One Host header, please.")
    }
    if !head.uri.hasPrefix("/") {
      // RFC 9112 §3.2.2: an absolute-form target's host is the one that counts. This server
      // is no proxy: it takes one only when it names the same host as the Host header.
      guard let target = Self.origin(of: head.uri), target.authority == host.lowercased() else {
        return .refuse(.badRequest, "The request target names another host.")
      }
    }
    if loopbackOnly, !LoopbackHost.isLoopback(authority: host) {
      return .refuse(.misdirectedRequest, "This server answers to loopback names only.")
    }
    guard Self.changesState(head) else { return .pass }
    if head.headers["Sec-Fetch-Site"].contains(where: { $0.lowercased() == "cross-site" }) {
      return .refuse(.forbidden, "Cross-site requests are refused.")
    }
    if let origin = head.headers["Origin"].first, !isAllowed(origin: origin, host: host) {
      return .refuse(.forbidden, "Requests from this origin are refused.")
    }
    return .pass
  }

  /// The server's own origin (either scheme: a TLS proxy may front it) or a listed one.
  private func isAllowed(origin: String, host: String) -> Bool {
    let origin = origin.lowercased()
    if allowedOrigins.contains(origin) { return true }
    guard let parsed = Self.origin(of: origin) else { return false }
    return Self.withoutDefaultPort(parsed.authority, scheme: parsed.scheme)
      == Self.withoutDefaultPort(host.lowercased(), scheme: parsed.scheme)
  }

  /// What a browser may send cross-site to change something: anything but a read, and the
  /// WebSocket upgrade (a page can open a socket to any host).
  package static func changesState(_ head: HTTPRequestHead) -> Bool {
    isUpgrade(head) || ![.GET, .HEAD, .OPTIONS].contains(head.method)
  }

  /// Whether the request asks for a WebSocket: `websocket` among the comma-separated
  /// protocols of any `Upgrade` header, in any case (as the upgrader reads them).
  package static func isUpgrade(_ head: HTTPRequestHead) -> Bool {
    head.headers["Upgrade"].contains { value in
      value.split(separator: ",").contains {
        $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket"
      }
    }
  }

  /// Scheme and lower-cased authority of `scheme://authority[/…]`.
  package static func origin(of text: String) -> (scheme: String, authority: String)? {
    guard let range = text.range(of: "://") else { return nil }
    let scheme = text[..<range.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { return nil }
    let rest = text[range.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty, !authority.contains("@") else { return nil }
    return (scheme, authority.lowercased())
  }

  package static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
    let port = scheme == "https" ? ":443" : ":80"
    return authority.hasSuffix(port) ? String(authority.dropLast(port.count)) : authority
  }
}
