import ProxyTunnel
import RFC6455

/// Everything a `WebSocketClient` can be told, with defaults suited to a conference network.
public struct ClientConfiguration: Sendable {
  /// Origin, subprotocols, extra headers and permessage-deflate (offered by default) of the
  /// opening handshake.
  public var handshake: HandshakeOptions
  /// The protocol core's limits: maximum message size, close timeout.
  public var protocolLimits: Configuration
  public var tls: TLSOptions
  /// Which proxy to go through, if any. Default direct: programs that follow the
  /// environment's `http_proxy` and friends pass `ProxySettings.environment(…)`, as `wsc`
  /// and `qna` do.
  public var proxy: ProxySettings
  /// Time allowed for TCP (and TLS) to connect. Default 10 s.
  public var connectTimeout: Duration
  /// Time allowed from connected to the server's 101. Default 10 s.
  public var handshakeTimeout: Duration
  /// Keep-alive ping cadence; `nil` turns keep-alive off. Default 20 s.
  public var pingInterval: Duration?
  /// No pong within this long means the connection is dead. Default 20 s.
  public var pingTimeout: Duration
  /// `nil`: never reconnect (the default; the Q&A client turns it on).
  public var reconnect: ReconnectPolicy?
  /// Events waiting for the consumer before reading from the socket pauses. Default 256.
  public var eventBufferSize: Int

  public init(
    handshake: HandshakeOptions = HandshakeOptions(deflate: DeflateOffer()),
    protocolLimits: Configuration = Configuration(),
    tls: TLSOptions = TLSOptions(), proxy: ProxySettings = .direct,
    connectTimeout: Duration = .seconds(10),
    handshakeTimeout: Duration = .seconds(10), pingInterval: Duration? = .seconds(20),
    pingTimeout: Duration = .seconds(20), reconnect: ReconnectPolicy? = nil,
    eventBufferSize: Int = 256
  ) {
    self.handshake = handshake
    self.protocolLimits = protocolLimits
    self.tls = tls
    self.proxy = proxy
    self.connectTimeout = connectTimeout
    self.handshakeTimeout = handshakeTimeout
    self.pingInterval = pingInterval
    self.pingTimeout = pingTimeout
    self.reconnect = reconnect
    self.eventBufferSize = eventBufferSize
  }

  /// How long a ping may wait before the connection is reported as stalled, ahead of the
  /// timeout: a fifth of the timeout, at least a second.
  var stallThreshold: Duration { max(.seconds(1), pingTimeout / 5) }
}

/// What a client reports, in order: connection changes and messages in one sequence.
public enum ClientEvent: Sendable, Hashable {
  /// A connection attempt starts (1 for the first).
  case connecting(attempt: Int)
  /// The opening handshake succeeded.
  case opened(subprotocol: String?, attempt: Int)
  case message(WebSocketMessage)
  /// A keep-alive ping was answered after this long.
  case roundTrip(Duration)
  /// The outstanding ping has waited this long (reported about once a second, before the
  /// ping timeout ends the connection).
  case stalled(waited: Duration)
  /// The connection or attempt ended, and why.
  case disconnected(Disconnect)
  /// The next attempt starts after this delay.
  case reconnecting(after: Duration, attempt: Int)
}

/// Why a send was refused.
public enum ClientError: Error, Sendable, Hashable, CustomStringConvertible {
  case notConnected
  case closing
  case connectionLost(String)
  case invalid(SendError)

  public var description: String {
    switch self {
    case .notConnected: "not connected"
    case .closing: "the connection is closing"
    case .connectionLost(let detail): "connection lost: \(detail)"
    case .invalid(let error): error.description
    }
  }
}
