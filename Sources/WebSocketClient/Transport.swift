import CommandLineValues
import NIOCore
import ProxyTunnel
import RFC6455

/// How the runtime reaches a server: TCP (and TLS) in production, in-memory pipes in tests.
public protocol WebSocketTransport: Sendable {
  /// Connects to `url`'s host, or through `proxy` to it when there is one; `timeout` bounds
  /// TCP's connect and, separately, the proxy's answer.
  func connect(to url: WebSocketURL, via proxy: ProxyEndpoint?, tls: TLSOptions, timeout: Duration)
    async throws(TransportError)
    -> any TransportChannel
}

/// One connected byte stream. It pushes what it reads to a `TransportSink`, on whatever
/// thread read it (the event loop, for NIO), so the bytes are parsed where they arrive.
public protocol TransportChannel: Sendable {
  /// Starts reading and hands everything to `sink`, one call at a time, in order. Nothing is
  /// read before this is called.
  func start(delivering sink: any TransportSink)
  /// Reads again after the sink's `received` returned false, first telling the sink
  /// (`readingResumes`) on the reading thread. Callable from any thread.
  func resumeReading()
  /// Queues `chunks` for writing, in call order, and returns at once; `completion` is told
  /// when they reached the socket (or failed).
  func write(_ chunks: [[UInt8]], completion: (@Sendable (TransportError?) -> Void)?)
  /// False while the transport holds more unwritten bytes than its high-water mark.
  var isWritable: Bool { get }
  /// Drops the connection.
  func close()
}

/// Where a `TransportChannel` delivers. Never called re-entrantly from inside a call the
/// sink made on the channel (a `close` or `write` made while handling `received` does not
/// call `ended` before that handling returns).
public protocol TransportSink: AnyObject, Sendable {
  /// The next bytes the peer sent. Returns false to stop reading until `resumeReading()`:
  /// that is how a slow consumer holds back the peer (TCP keeps the backlog in the kernel).
  func received(_ bytes: ByteBuffer) -> Bool
  /// Asked on the reading thread after `resumeReading()`, before reading again: whether to
  /// read. False when the sink is not held back (a resume that came late, or twice) or its
  /// consumer is behind again: reading waits for the next `resumeReading()`.
  func readingResumes() -> Bool
  /// The connection ended: `nil` for an EOF, else why it failed. Called once, last.
  func ended(_ failure: TransportError?)
}

/// Trust settings for `wss://`.
public struct TLSOptions: Sendable, Hashable {
  /// A PEM file of certificates to trust instead of the system's roots.
  public var caFile: String?
  /// Skip certificate verification (self-signed test servers only).
  public var insecure: Bool

  public init(caFile: String? = nil, insecure: Bool = false) {
    self.caFile = caFile
    self.insecure = insecure
  }
}

public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
  case connectFailed(String)
  case connectTimedOut(Duration)
  case tls(String)
  case io(String)
  /// The proxy (named without credentials) did not open the tunnel.
  case proxy(String, ProxyError)

  public var description: String {
    switch self {
    case .proxy(let proxy, let error): "the proxy \(proxy) \(error)"
    case .connectFailed(let detail): "connection failed: \(detail)"
    case .connectTimedOut(let timeout):
      "connection timed out after \(DurationValue.format(timeout))"
    case .tls(let detail): "TLS failed: \(detail)"
    case .io(let detail): "connection error: \(detail)"
    }
  }
}
