import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QnAGuards
import QnARoom
import QnAStore
import Synchronization

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
  /// Said once, the first time a proxy on this host that is not trusted forwards a request:
  /// every attendee then looks like loopback, which per-address limits do not count.
  let untrustedLocalProxy: OnceWarning

  init(trustedProxies: Set<String>, warn: @escaping @Sendable (String) -> Void = { _ in }) {
    self.trustedProxies = trustedProxies
    untrustedLocalProxy = OnceWarning(warn)
  }

  func of(_ request: Request, peer: SocketAddress?) -> String {
    let direct = peer?.ipAddress ?? "unknown"
    if !trustedProxies.contains(direct), LoopbackHost.isLoopback(bindAddress: direct),
      request.headers[HTTPField.Name("X-Forwarded-For")!] != nil
    {
      untrustedLocalProxy.say(
        """
        a proxy on this host (\(direct)) forwards requests but is not trusted: every attendee \
        looks like \(direct), which per-address limits do not count; start qna-server with \
        --trusted-proxy \(direct)
        """)
    }
    return of(
      peer: direct, forwardedFor: request.headers[values: HTTPField.Name("X-Forwarded-For")!])
  }

  /// The same from a peer's address and the `X-Forwarded-For` lines of a request head (the
  /// request gate's view, before any route).
  func of(peer direct: String, forwardedFor lines: [String]) -> String {
    guard trustedProxies.contains(direct), let forwarded = lines.last,
      let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
      !last.isEmpty
    else { return direct }
    return last
  }

  /// The address as per-address budgets count it (an IPv6 address as its /64), or `nil` for
  /// one they do not count: loopback (the operator, or a proxy on the same host that is not
  /// trusted, which the server warns of) and a trusted proxy that forwarded no address.
  func budgetKey(_ request: Request, peer: SocketAddress?) -> String? {
    let address = of(request, peer: peer)
    if trustedProxies.contains(address) || LoopbackHost.isLoopback(bindAddress: address)
      || address == "unknown"
    {
      return nil
    }
    return GuessThrottle.key(address)
  }

  /// Whether the request reached the proxy over TLS (so cookies must be `Secure`).
  func isSecure(_ request: Request, peer: SocketAddress?) -> Bool {
    guard trustedProxies.contains(peer?.ipAddress ?? "") else { return false }
    return request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
  }
}

/// A warning said the first time only.
final class OnceWarning: Sendable {
  private let said = Mutex(false)
  private let warn: @Sendable (String) -> Void

  init(_ warn: @escaping @Sendable (String) -> Void) { self.warn = warn }

  func say(_ message: @autoclosure () -> String) {
    guard
      !said.withLock({ said in
        defer { said = true }
        return said
      })
    else { return }
    warn(message())
  }
}
