import NIOCore
import RFC6455

/// How the runtime reaches a server: TCP (and TLS) in production, in-memory pipes in tests.
public protocol WebSocketTransport: Sendable {
  func connect(to url: WebSocketURL, tls: TLSOptions, timeout: Duration)
    async throws(TransportError)
    -> any TransportChannel
}

/// One connected byte stream.
public protocol TransportChannel: Sendable {
  /// The next bytes the peer sent; `nil` once it closed. One reader at a time. Nothing is read
  /// from the socket until this is called, which is how a slow consumer holds back the peer.
  func read() async throws(TransportError) -> ByteBuffer?
  /// Queues `chunks` for writing, in call order, and returns at once; `completion` is told
  /// when they reached the socket (or failed).
  func write(_ chunks: [[UInt8]], completion: (@Sendable (TransportError?) -> Void)?)
  /// False while the transport holds more unwritten bytes than its high-water mark.
  var isWritable: Bool { get }
  /// Drops the connection.
  func close()
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

  public var description: String {
    switch self {
    case .connectFailed(let detail): "connection failed: \(detail)"
    case .connectTimedOut(let timeout): "connection timed out after \(timeout)"
    case .tls(let detail): "TLS failed: \(detail)"
    case .io(let detail): "connection error: \(detail)"
    }
  }
}
