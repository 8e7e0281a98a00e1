/// Every limit and timeout of the protocol core, with its default.
public struct Configuration: Sendable, Hashable {
  /// Largest message accepted, after reassembly; larger ones close with 1009 before any of the
  /// payload is buffered. Default 16 MiB.
  public var maxMessageSize: Int
  /// Largest handshake response head (status line and headers). Default 16 KiB.
  public var maxHandshakeHeaderSize: Int
  /// How long to wait for the peer's close frame after ours, and for the server to close TCP
  /// after the close handshake, before the transport is told to drop the connection. Default 5 s.
  public var closeTimeout: Duration
  /// After failing the connection for the peer's protocol violation, how long to wait for
  /// its close before dropping TCP: a peer that broke the protocol is not waited on for long,
  /// so the failure is reported promptly. Default 500 ms (never more than `closeTimeout`).
  public var failureTimeout: Duration

  public init(
    maxMessageSize: Int = 16 << 20, maxHandshakeHeaderSize: Int = 16 << 10,
    closeTimeout: Duration = .seconds(5), failureTimeout: Duration = .milliseconds(500)
  ) {
    self.maxMessageSize = maxMessageSize
    self.maxHandshakeHeaderSize = maxHandshakeHeaderSize
    self.closeTimeout = closeTimeout
    self.failureTimeout = failureTimeout
  }
}
