import NIOCore
import ProxyTunnel
import RFC6455
import Synchronization
import TestSupport
import WebSocketClient

/// An in-memory transport: each `connect` hands the test a `PipeServer` playing the server,
/// or fails as the test decided.
final class PipeTransport: WebSocketTransport {
  enum Plan: Sendable {
    case accept
    case fail(TransportError)
  }

  private let state = Mutex<(plans: [Plan], servers: [PipeServer])>(([], []))

  /// What the next connects do; once the plans run out, connects are accepted.
  func plan(_ plans: [Plan]) { state.withLock { $0.plans += plans } }

  var servers: [PipeServer] { state.withLock { $0.servers } }
  var connectCount: Int { state.withLock { $0.servers.count } }

  func connect(to url: WebSocketURL, via proxy: ProxyEndpoint?, tls: TLSOptions, timeout: Duration)
    async throws(TransportError)
    -> any TransportChannel
  {
    let plan = state.withLock { $0.plans.isEmpty ? Plan.accept : $0.plans.removeFirst() }
    let server = PipeServer()
    state.withLock { $0.servers.append(server) }
    if case .fail(let error) = plan { throw error }
    return server.clientSide
  }
}

/// The server end of one in-memory connection.
final class PipeServer: Sendable {
  private struct State {
    var toClient: [[UInt8]] = []
    var clientClosed = false
    var serverClosed = false
    var reader: CheckedContinuation<[UInt8]?, Never>?
    var fromClient: [UInt8] = []
    /// The client stopped reading; its pump waits here for `resumeReading`.
    var pausedPump: CheckedContinuation<Void, Never>?
    var resumeRequested = false
  }

  private let state = Mutex(State())
  var clientSide: ClientEnd { ClientEnd(server: self) }

  /// Everything the client wrote so far.
  var written: [UInt8] { state.withLock { $0.fromClient } }
  var clientClosed: Bool { state.withLock { $0.clientClosed } }
  /// Chunks sent that the client has not read yet.
  var unreadByClient: Int { state.withLock { $0.toClient.count } }
  /// The client stopped reading (its consumer is behind) and waits to be told to resume.
  var clientPaused: Bool { state.withLock { $0.pausedPump != nil } }

  /// Frames the client wrote after the handshake request, decoded.
  var framesFromClient: [FrameDecoder.Output] {
    let bytes = written
    guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return [] }
    var decoder = FrameDecoder(role: .server)
    var outputs: [FrameDecoder.Output] = []
    Array(bytes[end...]).withUnsafeBytes { try? decoder.decode($0, into: &outputs) }
    return outputs
  }

  /// The handshake request's key, once the client sent it.
  var requestKey: String? {
    let text = String(decoding: written, as: UTF8.self)
    guard
      let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix("Sec-WebSocket-Key: ") })
    else { return nil }
    return String(line.dropFirst("Sec-WebSocket-Key: ".count))
  }

  func send(_ bytes: [UInt8]) {
    let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
      if let reader = state.reader {
        state.reader = nil
        return reader
      }
      state.toClient.append(bytes)
      return nil
    }
    reader?.resume(returning: bytes)
  }

  /// Answers the handshake with a valid 101, followed by `frames` in the same read.
  func accept(then frames: [UInt8] = []) {
    guard let key = requestKey else { fatalError("no request yet") }
    let accept = HandshakeRequest.acceptValue(forKey: key)
    send(
      Array(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
          .utf8) + frames)
  }

  /// Ends the connection from the server's side (EOF for the client).
  func closeTCP() {
    let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
      state.serverClosed = true
      defer { state.reader = nil }
      return state.toClient.isEmpty ? state.reader : nil
    }
    reader?.resume(returning: nil)
  }

  fileprivate func clientRead() async -> [UInt8]? {
    await withCheckedContinuation { continuation in
      let next = state.withLock { state -> [UInt8]?? in
        if !state.toClient.isEmpty { return .some(state.toClient.removeFirst()) }
        if state.serverClosed || state.clientClosed { return .some(nil) }
        state.reader = continuation
        return .none
      }
      if let next { continuation.resume(returning: next) }
    }
  }

  /// Delivers what the server sends, like a socket's reader would.
  fileprivate func pump(to sink: any TransportSink) {
    Task {
      while let bytes = await clientRead() {
        if !sink.received(ByteBuffer(bytes: bytes)) {
          // A pipe has no reads in flight to make a resume late (one pause, one resume), so
          // the sink says no only once it has finished, when what is read is ignored.
          await waitForResume()
          _ = sink.readingResumes()
        }
      }
      sink.ended(nil)
    }
  }

  private func waitForResume() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        if state.resumeRequested {
          state.resumeRequested = false
          return true
        }
        state.pausedPump = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  fileprivate func resumePump() {
    let pump = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard let pump = state.pausedPump else {
        state.resumeRequested = true
        return nil
      }
      state.pausedPump = nil
      return pump
    }
    pump?.resume()
  }

  fileprivate func clientWrite(_ chunks: [[UInt8]]) -> Bool {
    state.withLock { state in
      guard !state.clientClosed, !state.serverClosed else { return false }
      for chunk in chunks { state.fromClient += chunk }
      return true
    }
  }

  fileprivate func clientClose() {
    let reader = state.withLock { state -> CheckedContinuation<[UInt8]?, Never>? in
      state.clientClosed = true
      defer { state.reader = nil }
      return state.reader
    }
    reader?.resume(returning: nil)
  }

  struct ClientEnd: TransportChannel {
    let server: PipeServer
    func start(delivering sink: any TransportSink) { server.pump(to: sink) }
    func resumeReading() { server.resumePump() }
    func write(_ chunks: [[UInt8]], completion: (@Sendable (TransportError?) -> Void)?) {
      let written = server.clientWrite(chunks)
      completion?(written ? nil : .io("closed"))
    }
    var isWritable: Bool { true }
    func close() { server.clientClose() }
  }
}

/// Closes `client` while `server` answers the close handshake like a well-behaved server:
/// echo the close frame, then end TCP.
func closeGracefully(_ client: WebSocketClient, answeredBy server: PipeServer) async {
  let closing = Task { await client.close() }
  let sawClose = await eventually {
    server.framesFromClient.contains { if case .close = $0 { true } else { false } }
  }
  if sawClose {
    server.send(serverFrame(.close, [0x03, 0xE8]))
    server.closeTCP()
  }
  await closing.value
}
