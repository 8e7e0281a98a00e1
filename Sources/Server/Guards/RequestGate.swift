import NIOCore
import NIOHTTP1

/// Applies a `RequestPolicy` right behind the HTTP decoder, to every request head of the
/// connection: a refused request gets its status and one line saying why, after the
/// responses to the requests before it, and the connection closes. It tells the
/// `ConnectionGuard` when a head arrives, and when the server's 101 goes out: then the
/// connection is a WebSocket, and the gate steps aside (the upgrade removes the HTTP
/// handlers around it).
package final class RequestGate: ChannelDuplexHandler, RemovableChannelHandler {
  package typealias InboundIn = HTTPServerRequestPart
  package typealias InboundOut = HTTPServerRequestPart
  package typealias OutboundIn = HTTPServerResponsePart
  package typealias OutboundOut = HTTPServerResponsePart

  private let policy: RequestPolicy
  private let judgeUpgrade: UpgradeJudge?
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
  /// A refusal waiting for the responses to the requests before it, and when to try again
  /// (`Retry-After`, for a guess over its rate).
  private var pendingRefusal:
    (status: HTTPResponseStatus, reason: String, head: HTTPRequestHead, retryAfter: Duration?)?

  /// `judgeUpgrade`: who may open which WebSocket (the app's credentials), asked for every
  /// upgrade the policy lets through.
  package init(
    policy: RequestPolicy, judgeUpgrade: UpgradeJudge? = nil,
    onRefusal: @escaping @Sendable (HTTPResponseStatus, String, HTTPRequestHead) -> Void
  ) {
    self.policy = policy
    self.judgeUpgrade = judgeUpgrade
    self.onRefusal = onRefusal
  }

  package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if refused { return }
    if held != nil {
      held?.append(data)
      return
    }
    if case .head(let head) = unwrapInboundIn(data) {
      context.triggerUserOutboundEvent(ConnectionMilestone.requestHead, promise: nil)
      var verdict = policy.judge(head)
      var retryAfter: Duration?
      if verdict == .pass, RequestPolicy.isUpgrade(head), let judgeUpgrade {
        let peer = context.channel.remoteAddress?.ipAddress ?? ""
        switch judgeUpgrade(head, peer) {
        case .decided(.pass): break
        case .decided(.refuse(let status, let reason, let after)):
          verdict = .refuse(status, reason)
          retryAfter = after
        case .pending(let judgement):
          return hold(data, until: judgement, judges: head, context: context)
        }
      }
      if case .refuse(let status, let reason) = verdict {
        return refuse(status, reason, head, retryAfter: retryAfter, context: context)
      }
      inFlight += 1
    }
    context.fireChannelRead(data)
  }

  private func refuse(
    _ status: HTTPResponseStatus, _ reason: String, _ head: HTTPRequestHead,
    retryAfter: Duration?, context: ChannelHandlerContext
  ) {
    refused = true
    onRefusal(status, reason, head)
    pendingRefusal = (status, reason, head, retryAfter)
    if inFlight == 0 { refuseNow(context: context) }
  }

  package func read(context: ChannelHandlerContext) {
    if held != nil {
      readWhileHeld = true
      return
    }
    context.read()
  }

  /// Holds the request (and whatever follows it) while its session is looked up, then lets
  /// it through or refuses it, on the event loop.
  private func hold(
    _ data: NIOAny, until judgement: @escaping @Sendable () async -> UpgradeVerdict,
    judges head: HTTPRequestHead, context: ChannelHandlerContext
  ) {
    held = [data]
    let loop = context.eventLoop
    let bound = NIOLoopBound((self, context), eventLoop: loop)
    Task {
      let verdict = await judgement()
      loop.execute {
        let (gate, context) = bound.value
        gate.resume(after: verdict, head: head, context: context)
      }
    }
  }

  private func resume(
    after verdict: UpgradeVerdict, head: HTTPRequestHead,
    context: ChannelHandlerContext
  ) {
    let parts = held ?? []
    held = nil
    switch verdict {
    case .refuse(let status, let reason, let retryAfter):
      refuse(status, reason, head, retryAfter: retryAfter, context: context)
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

  /// A request the HTTP parser cannot read (a bad byte in its head, say), between requests,
  /// gets 400 and the connection closes, instead of waiting out the header timeout in
  /// silence. Inside a request already passed on (its body), or held, the error goes on to
  /// the server, which answers that request.
  package func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard error is HTTPParserError, !refused, inFlight == 0, held == nil else {
      context.fireErrorCaught(error)
      return
    }
    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "*")
    refuse(.badRequest, "The request could not be parsed.", head, retryAfter: nil, context: context)
  }

  package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?)
  {
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
      if inFlight == 0, pendingRefusal != nil { refuseNow(context: context) }
      if inFlight == 0 {
        context.triggerUserOutboundEvent(ConnectionMilestone.responseEnded, promise: nil)
      }
    default:
      context.write(data, promise: promise)
    }
  }

  private func refuseNow(context: ChannelHandlerContext) {
    guard let (status, reason, head, retryAfter) = pendingRefusal else { return }
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
    if let retryAfter {
      headers.add(name: "Retry-After", value: Self.seconds(retryAfter))
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

extension RequestGate {
  /// Seconds for a `Retry-After` header: whole, rounded up, at least 1.
  package static func seconds(_ wait: Duration) -> String {
    let (seconds, attoseconds) = wait.components
    return String(max(1, seconds + (attoseconds > 0 ? 1 : 0)))
  }
}
