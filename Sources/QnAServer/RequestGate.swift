import Foundation
import NIOCore
import NIOHTTP1

/// Who may send what, judged on each request's head before any route sees it, and for the
/// WebSocket upgrade too (which Hummingbird would only ever refuse with a bare 400).
struct RequestPolicy: Sendable {
  /// No admin token guards the server: only loopback names may be in `Host`, against DNS
  /// rebinding.
  var loopbackOnly: Bool
  /// Origins besides the server's own that may send state-changing requests, lower-cased,
  /// as `scheme://host[:port]`.
  var allowedOrigins: Set<String>

  enum Verdict: Equatable {
    case pass
    case refuse(HTTPResponseStatus, String)
  }

  func judge(_ head: HTTPRequestHead) -> Verdict {
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
  static func changesState(_ head: HTTPRequestHead) -> Bool {
    isUpgrade(head) || ![.GET, .HEAD, .OPTIONS].contains(head.method)
  }

  /// Whether the request asks for a WebSocket: `websocket` among the comma-separated
  /// protocols of any `Upgrade` header, in any case (as the upgrader reads them).
  static func isUpgrade(_ head: HTTPRequestHead) -> Bool {
    head.headers["Upgrade"].contains { value in
      value.split(separator: ",").contains {
        $0.trimmingCharacters(in: .whitespaces).lowercased() == "websocket"
      }
    }
  }

  /// Scheme and lower-cased authority of `scheme://authority[/…]`.
  static func origin(of text: String) -> (scheme: String, authority: String)? {
    guard let range = text.range(of: "://") else { return nil }
    let scheme = text[..<range.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else { return nil }
    let rest = text[range.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !authority.isEmpty, !authority.contains("@") else { return nil }
    return (scheme, authority.lowercased())
  }

  static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
    let port = scheme == "https" ? ":443" : ":80"
    return authority.hasSuffix(port) ? String(authority.dropLast(port.count)) : authority
  }
}

/// Applies a `RequestPolicy` right behind the HTTP decoder, to every request head of the
/// connection: a refused request gets its status and one line saying why, after the
/// responses to the requests before it, and the connection closes. It tells the
/// `ConnectionGuard` when a head arrives, and when the server's 101 goes out: then the
/// connection is a WebSocket, and the gate steps aside (the upgrade removes the HTTP
/// handlers around it).
final class RequestGate: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private let policy: RequestPolicy
  private let presenters: PresenterSocketAuth?
  private let sessionSockets: SessionSocketJudge?
  /// What was read while a session socket's upgrade is judged (a database read away): let
  /// through, or not, in order once the verdict is in.
  private var held: [NIOAny]?
  /// A read asked for while a request is held: passed on when it is let through (until then
  /// nothing more is read, so a held request cannot grow a buffer).
  private var readWhileHeld = false
  private let onRefusal: @Sendable (HTTPResponseStatus, String, HTTPRequestHead) -> Void
  /// Set once a request is refused: nothing more is read from this connection.
  private var refused = false
  /// Requests passed on whose responses have not ended yet.
  private var inFlight = 0
  /// A refusal waiting for the responses to the requests before it, and when it is due (a
  /// throttled guess is not answered sooner for having followed another request).
  private var pendingRefusal: (status: HTTPResponseStatus, reason: String, head: HTTPRequestHead)?
  private var refusalDue: NIODeadline?

  init(
    policy: RequestPolicy, presenters: PresenterSocketAuth? = nil,
    sessionSockets: SessionSocketJudge? = nil,
    onRefusal: @escaping @Sendable (HTTPResponseStatus, String, HTTPRequestHead) -> Void
  ) {
    self.policy = policy
    self.presenters = presenters
    self.sessionSockets = sessionSockets
    self.onRefusal = onRefusal
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if refused { return }
    if held != nil {
      held?.append(data)
      return
    }
    if case .head(let head) = unwrapInboundIn(data) {
      context.triggerUserOutboundEvent(ConnectionMilestone.requestHead, promise: nil)
      var verdict = policy.judge(head)
      var wait = Duration.zero
      let peer = context.channel.remoteAddress?.ipAddress ?? ""
      if verdict == .pass, RequestPolicy.isUpgrade(head),
        PresenterSocketAuth.sessionCode(ofTarget: head.uri) != nil, let sessionSockets
      {
        return hold(data, until: sessionSockets, judges: head, peer: peer, context: context)
      }
      if verdict == .pass, RequestPolicy.isUpgrade(head), let presenters,
        case .refuse(let delay) = presenters.judge(head, peer: peer)
      {
        verdict = .refuse(.unauthorized, "A presenter's socket needs the admin token.")
        wait = delay
      }
      if case .refuse(let status, let reason) = verdict {
        return refuse(status, reason, head, after: wait, context: context)
      }
      inFlight += 1
    }
    context.fireChannelRead(data)
  }

  private func refuse(
    _ status: HTTPResponseStatus, _ reason: String, _ head: HTTPRequestHead, after wait: Duration,
    context: ChannelHandlerContext
  ) {
    refused = true
    onRefusal(status, reason, head)
    pendingRefusal = (status, reason, head)
    refusalDue = .now() + TimeAmount(wait)
    if inFlight == 0 { refuseWhenDue(context: context) }
  }

  /// A wrong guess is answered at its turn (the login form's throttle), not before.
  private func refuseWhenDue(context: ChannelHandlerContext) {
    guard let due = refusalDue, due > .now() else { return refuseNow(context: context) }
    let loop = context.eventLoop.assumeIsolated()
    loop.scheduleTask(deadline: due) { self.refuseNow(context: context) }
  }

  func read(context: ChannelHandlerContext) {
    if held != nil {
      readWhileHeld = true
      return
    }
    context.read()
  }

  /// Holds the request (and whatever follows it) while its session is looked up, then lets
  /// it through or refuses it, on the event loop.
  private func hold(
    _ data: NIOAny, until judge: SessionSocketJudge, judges head: HTTPRequestHead, peer: String,
    context: ChannelHandlerContext
  ) {
    held = [data]
    let loop = context.eventLoop
    let bound = NIOLoopBound((self, context), eventLoop: loop)
    Task {
      let verdict = await judge.judge(head, peer: peer)
      loop.execute {
        let (gate, context) = bound.value
        gate.resume(after: verdict, head: head, context: context)
      }
    }
  }

  private func resume(
    after verdict: SessionSocketJudge.Verdict, head: HTTPRequestHead,
    context: ChannelHandlerContext
  ) {
    let parts = held ?? []
    held = nil
    switch verdict {
    case .refuse(let status, let reason, let wait):
      refuse(status, reason, head, after: wait, context: context)
    case .pass:
      inFlight += 1
      context.fireChannelRead(parts[0])
      // Whatever came after it is judged as if it came now (another request may be held).
      for part in parts.dropFirst() { channelRead(context: context, data: part) }
      context.fireChannelReadComplete()
    }
    if readWhileHeld, held == nil {
      readWhileHeld = false
      context.read()
    }
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let head) where head.status == .switchingProtocols:
      context.triggerUserOutboundEvent(ConnectionMilestone.upgraded, promise: nil)
      // Out of the way once the 101 is written (removed in the middle of the write, the
      // write would never complete): before the upgrade goes on, as callbacks run in order.
      let written = context.eventLoop.makePromise(of: Void.self)
      context.write(data, promise: written)
      written.futureResult.assumeIsolated().whenComplete { result in
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        promise?.completeWith(result)
      }
    case .end:
      context.write(data, promise: promise)
      inFlight = max(0, inFlight - 1)
      if inFlight == 0, pendingRefusal != nil { refuseWhenDue(context: context) }
      if inFlight == 0 {
        context.triggerUserOutboundEvent(ConnectionMilestone.responseEnded, promise: nil)
      }
    default:
      context.write(data, promise: promise)
    }
  }

  private func refuseNow(context: ChannelHandlerContext) {
    guard let (status, reason, head) = pendingRefusal else { return }
    pendingRefusal = nil
    let body = context.channel.allocator.buffer(string: reason + "\n")
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    headers.add(name: "Content-Length", value: String(body.readableBytes))
    headers.add(name: "Connection", value: "close")
    for (name, value) in SecurityHeaders.fields { headers.add(name: name, value: value) }
    if status == .unauthorized {
      headers.add(name: "WWW-Authenticate", value: "Bearer realm=\"qna presenter\"")
    }
    let response = HTTPResponseHead(version: head.version, status: status, headers: headers)
    context.write(wrapOutboundOut(.head(response)), promise: nil)
    // A HEAD request's response has the length of the body it would have, and none.
    if head.method != .HEAD {
      context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }
}
