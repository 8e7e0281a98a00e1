import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QnARoom
import QnAStore

/// The HTTP routes' context: Hummingbird's, plus the peer's address (for the login throttle,
/// and the client's address behind a trusted proxy).
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
  var coreContext: CoreRequestContextStorage
  let remoteAddress: SocketAddress?
  /// Under `/s/CODE/`: the session and its room, once `PresenterGate` admitted the request.
  var session: (record: SessionRecord, room: SessionRoom)?

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }
}

/// Who sent a request: the peer, or, when the peer is a trusted proxy, the last address it
/// added to `X-Forwarded-For` (the one it saw; anything before it the client could forge).
struct ClientAddress: Sendable {
  let trustedProxies: Set<String>

  func of(_ request: Request, peer: SocketAddress?) -> String {
    let direct = peer?.ipAddress ?? "unknown"
    guard trustedProxies.contains(direct),
      let forwarded = request.headers[values: HTTPField.Name("X-Forwarded-For")!].last,
      let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
      !last.isEmpty
    else { return direct }
    return last
  }

  /// Whether the request reached the proxy over TLS (so cookies must be `Secure`).
  func isSecure(_ request: Request, peer: SocketAddress?) -> Bool {
    guard trustedProxies.contains(peer?.ipAddress ?? "") else { return false }
    return request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
  }
}
