/// The client side of one WebSocket connection, sans I/O (RFC 6455 §4–§7).
///
/// Feed it what the socket read (`receive`), what the socket did (`transportClosed`) and the
/// time (`handleDeadline` once `deadline` passes); write what `takeOutbound()` returns. The
/// caller supplies the clock readings and the randomness; nothing here blocks or sleeps.
public struct ClientConnection: Sendable {
  public enum State: Sendable, Hashable {
    /// The handshake request is sent or queued; waiting for the 101.
    case connecting
    case open
    /// A close frame was sent or received; waiting for the rest of the close handshake.
    case closing
    case closed
  }

  public private(set) var state = State.connecting
  public let request: HandshakeRequest
  public let configuration: Configuration
  /// What the server agreed to, once open.
  public private(set) var handshake: HandshakeResponse?
  /// When `handleDeadline(now:)` must be called, if the core is waiting on a timer.
  public private(set) var deadline: Duration?

  private var random: any RandomNumberGenerator & Sendable
  /// Makes the compressor once permessage-deflate is agreed.
  private let compressors: (any MessageCompressorFactory)?
  /// The agreed compressor, for messages out (`nil`: they go out as they are: nothing was
  /// agreed, or the server asked for a window zlib cannot keep to).
  private var outgoingCompressor: (any MessageCompressor)?
  private var responseParser: HandshakeResponseParser
  private var decoder: FrameDecoder
  private var outbound: [[UInt8]] = []
  /// Where in `outbound` pongs wait unsent. Each ping is answered, up to `maxQueuedPongs` per
  /// read; past that a later ping replaces the last pong (RFC 6455 §5.5.3 allows answering
  /// only the latest), so a peer that floods pings cannot grow the queue.
  private var queuedPongs: [Int] = []
  /// Pongs one read may queue: more than a peer that pings in earnest sends at once (the
  /// Autobahn suite sends 10 and expects 10 answers), few enough to bound a flood.
  public static let maxQueuedPongs = 16
  private var sentClose: CloseFrame?
  private var receivedClose: CloseFrame?
  /// The peer's close frame came before ours.
  private var closedByPeer = false
  private var failure: WebSocketError?
  /// A violation found in the last read, failed at the next `takeOutbound()` so that replies
  /// to the messages before it still go out ahead of the close frame.
  private var pendingViolation: (error: ProtocolError, at: Duration)?

  /// `compressors`: the runtime's permessage-deflate; without it nothing is offered, whatever
  /// `options.deflate` says.
  public init(
    url: WebSocketURL, options: HandshakeOptions = HandshakeOptions(),
    configuration: Configuration = Configuration(),
    random: some RandomNumberGenerator & Sendable = ChaCha20Random(),
    compressors: (any MessageCompressorFactory)? = nil
  ) throws(HandshakeRequestError) {
    var random = random
    var options = options
    if compressors == nil { options.deflate = nil }
    self.compressors = compressors
    request = try HandshakeRequest(url: url, options: options, random: &random)
    self.random = random
    self.configuration = configuration
    responseParser = HandshakeResponseParser(
      maxHeaderBlockSize: configuration.maxHandshakeHeaderSize)
    decoder = FrameDecoder(role: .client, maxMessageSize: configuration.maxMessageSize)
    outbound = [request.bytes]
  }

  // MARK: Bytes out

  /// Everything queued for the wire, in order; the queue is left empty. After a protocol
  /// violation this is where its close frame is queued, behind what the application sent in
  /// reply to the messages that preceded it.
  public mutating func takeOutbound() -> [[UInt8]] {
    applyPendingViolation()
    defer {
      outbound = []
      queuedPongs = []
    }
    return outbound
  }

  /// Like `takeOutbound()`, but a violation found in the last read stays pending: for a
  /// runtime that hands events to the application asynchronously, which flushes the
  /// application's replies with this until it has handled the messages before the
  /// violation, then calls `takeOutbound()`.
  public mutating func takeReplies() -> [[UInt8]] {
    defer {
      outbound = []
      queuedPongs = []
    }
    return outbound
  }

  public var hasOutbound: Bool { !outbound.isEmpty || pendingViolation != nil }

  /// The last read ended in a protocol violation that `takeOutbound()` has not yet failed.
  public var hasPendingViolation: Bool { pendingViolation != nil }

  // MARK: Bytes in

  public mutating func receive(_ bytes: [UInt8], now: Duration) -> [WebSocketEvent] {
    bytes.withUnsafeBytes { receive($0, now: now) }
  }

  public mutating func receive(_ bytes: UnsafeRawBufferPointer, now: Duration) -> [WebSocketEvent] {
    var events: [WebSocketEvent] = []
    var frameBytes = bytes
    if state == .connecting {
      do throws(HandshakeError) {
        guard let (head, consumed) = try responseParser.parse(bytes) else { return [] }
        let response = try request.validate(head)
        state = .open
        handshake = response
        if let agreed = response.deflate, let compressors {
          let compressor = compressors.make(agreed)
          decoder.compressor = compressor
          // zlib cannot keep to a 256-byte window: then this side sends uncompressed, which
          // RFC 7692 allows for any message.
          outgoingCompressor = agreed.clientMaxWindowBits >= 9 ? compressor : nil
        }
        events.append(.opened(response))
        // The server may send its first frames in the same read as the 101.
        frameBytes = UnsafeRawBufferPointer(rebasing: bytes[consumed...])
      } catch {
        return finish(error: .handshake(error))
      }
    }
    guard state == .open || state == .closing, failure == nil, !decoder.receivedClose else {
      return events
    }
    // Nothing after a violation is read; it is failed at the next `takeOutbound()`.
    if pendingViolation != nil { return events }
    var frames: [FrameDecoder.Output] = []
    var violation: ProtocolError?
    do throws(ProtocolError) {
      try decoder.decode(frameBytes, into: &frames)
    } catch {
      violation = error
    }
    events.reserveCapacity(events.count + frames.count)
    for frame in frames {
      switch frame {
      case .message(let message):
        events.append(.message(message))
      case .ping(let payload):
        // RFC 6455 §5.5.2: answer with the same payload, unless we are already closing.
        if sentClose == nil { queuePong(payload) }
        events.append(.ping(payload))
      case .pong(let payload):
        events.append(.pong(payload))
      case .close(let frame):
        receivedClose = frame
        if sentClose == nil {
          closedByPeer = true
          // RFC 6455 §5.5.1: echo the status code.
          sendClose(CloseFrame(code: frame.code), now: now)
        } else {
          deadline = now + configuration.closeTimeout  // now wait for the server to close TCP
        }
      }
    }
    if let violation { pendingViolation = (violation, now) }
    return events
  }

  /// The transport's connection ended (EOF, reset or error).
  public mutating func transportClosed(now: Duration) -> [WebSocketEvent] {
    applyPendingViolation()
    switch state {
    case .closed: return []
    case .connecting: return finish(error: .handshake(.connectionClosed))
    case .open, .closing: return finish(error: nil)
    }
  }

  /// Call when `deadline` has passed.
  public mutating func handleDeadline(now: Duration) -> [WebSocketEvent] {
    applyPendingViolation()
    guard let deadline, now >= deadline, state == .closing else { return [] }
    // Our close went unanswered: the connection ends abnormally. After a complete close
    // handshake the server was only slow to close TCP, and the close stays clean.
    return finish(error: receivedClose == nil && failure == nil ? .closeTimeout : nil)
  }

  // MARK: Commands

  public mutating func send(text: String) throws(SendError) {
    try requireOpen()
    var text = text
    text.withUTF8 { queueFrame(.text, payload: UnsafeRawBufferPointer($0)) }
  }

  public mutating func send(binary: [UInt8]) throws(SendError) {
    try requireOpen()
    binary.withUnsafeBytes { queueFrame(.binary, payload: $0) }
  }

  public mutating func send(binary: UnsafeRawBufferPointer) throws(SendError) {
    try requireOpen()
    queueFrame(.binary, payload: binary)
  }

  public mutating func ping(payload: [UInt8] = []) throws(SendError) {
    try requireOpen()
    guard payload.count <= 125 else { throw .controlPayloadTooLong(payload.count) }
    queueFrame(.ping, payload: payload)
  }

  /// An unsolicited pong (RFC 6455 §5.5.3), e.g. as a one-way heartbeat.
  public mutating func pong(payload: [UInt8] = []) throws(SendError) {
    try requireOpen()
    guard payload.count <= 125 else { throw .controlPayloadTooLong(payload.count) }
    queueFrame(.pong, payload: payload)
  }

  /// Starts the close handshake. While connecting, abandons the attempt at once (the returned
  /// `.closed` tells the transport to drop TCP). Closing again is a no-op.
  public mutating func close(code: CloseCode? = .normalClosure, reason: String = "", now: Duration)
    throws(SendError) -> [WebSocketEvent]
  {
    if let code, !code.isAllowedOnWire { throw .invalidCloseCode(code.rawValue) }
    if code == nil && !reason.isEmpty { throw .closeReasonWithoutCode }
    if reason.utf8.count > 123 { throw .closeReasonTooLong(reason.utf8.count) }
    applyPendingViolation()
    switch state {
    case .connecting:
      return finish(error: nil)
    case .open:
      sendClose(CloseFrame(code: code, reason: reason), now: now)
      return []
    case .closing, .closed:
      return []
    }
  }

  // MARK: Internals

  private func requireOpen() throws(SendError) {
    guard state == .open else { throw .notOpen(state) }
  }

  private mutating func queueFrame(_ opcode: Opcode, payload: [UInt8]) {
    payload.withUnsafeBytes { queueFrame(opcode, payload: $0) }
  }

  private mutating func queueFrame(_ opcode: Opcode, payload: UnsafeRawBufferPointer) {
    let key = MaskingKey.random(using: &random)
    if !opcode.isControl, let outgoingCompressor,
      payload.count >= request.options.deflate?.minimumSize ?? Int.max
    {
      let compressed = outgoingCompressor.deflate(payload)
      outbound.append(
        compressed.withUnsafeBytes {
          FrameEncoder.encode(opcode: opcode, compressed: true, payload: $0, maskingKey: key)
        })
      return
    }
    outbound.append(FrameEncoder.encode(opcode: opcode, payload: payload, maskingKey: key))
  }

  private mutating func queuePong(_ payload: [UInt8]) {
    let key = MaskingKey.random(using: &random)
    let frame = payload.withUnsafeBytes {
      FrameEncoder.encode(opcode: .pong, payload: $0, maskingKey: key)
    }
    if queuedPongs.count >= Self.maxQueuedPongs, let last = queuedPongs.last {
      outbound[last] = frame
    } else {
      queuedPongs.append(outbound.count)
      outbound.append(frame)
    }
  }

  private mutating func sendClose(_ frame: CloseFrame, now: Duration) {
    queueFrame(.close, payload: frame.payload)
    sentClose = frame
    state = .closing
    deadline = now + configuration.closeTimeout
  }

  /// RFC 6455 §7.1.7: send a close frame with the violation's code and read nothing more.
  private mutating func applyPendingViolation() {
    guard let (violation, now) = pendingViolation else { return }
    pendingViolation = nil
    failure = .protocolViolation(violation)
    if sentClose == nil {
      sendClose(CloseFrame(code: violation.closeCode, reason: violation.shortReason), now: now)
    }
    deadline = now + min(configuration.closeTimeout, configuration.failureTimeout)
  }

  private mutating func finish(error: WebSocketError?) -> [WebSocketEvent] {
    state = .closed
    deadline = nil
    let error = failure ?? error
    let status: CloseStatus
    if case .protocolViolation(let violation) = failure {
      status = CloseStatus(
        code: violation.closeCode, reason: violation.description, wasClean: false,
        closedByPeer: false, error: error)
    } else if let receivedClose {
      status = CloseStatus(
        code: receivedClose.code ?? .noStatusReceived, reason: receivedClose.reason,
        wasClean: sentClose != nil, closedByPeer: closedByPeer, error: error)
    } else {
      status = CloseStatus(
        code: .abnormalClosure, reason: error?.description ?? "", wasClean: false,
        closedByPeer: false, error: error)
    }
    return [.closed(status)]
  }
}

extension ProtocolError {
  /// A close reason that fits in a control frame (at most 123 bytes).
  var shortReason: String {
    let text = description
    return text.utf8.count <= 123
      ? text : String(decoding: Array(text.utf8.prefix(120)), as: UTF8.self)
  }
}
