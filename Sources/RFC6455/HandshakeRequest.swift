/// What a client may add to its opening handshake.
public struct HandshakeOptions: Sendable, Hashable {
  public var origin: String?
  /// Offered in `Sec-WebSocket-Protocol`, in order of preference.
  public var subprotocols: [String]
  /// Any other headers, e.g. `Authorization`. The handshake's own headers may not be overridden.
  public var extraHeaders: HTTPHeaders
  /// permessage-deflate, offered in `Sec-WebSocket-Extensions`; `nil`: no compression.
  public var deflate: DeflateOffer?

  public init(
    origin: String? = nil, subprotocols: [String] = [], extraHeaders: HTTPHeaders = [],
    deflate: DeflateOffer? = nil
  ) {
    self.origin = origin
    self.subprotocols = subprotocols
    self.extraHeaders = extraHeaders
    self.deflate = deflate
  }
}

/// The client's opening handshake (RFC 6455 §4.1), built once per connection attempt.
public struct HandshakeRequest: Sendable, Hashable {
  public let url: WebSocketURL
  public let options: HandshakeOptions
  /// `Sec-WebSocket-Key`: 16 random bytes, base64.
  public let key: String
  /// The complete request, ready for the wire.
  public let bytes: [UInt8]

  /// Header names the handshake sets itself and the caller may not supply.
  static let reservedHeaderNames: Set<String> = [
    "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
    "sec-websocket-protocol", "sec-websocket-extensions", "origin", "content-length",
    "transfer-encoding",
  ]

  public init<Random: RandomNumberGenerator>(
    url: WebSocketURL, options: HandshakeOptions = HandshakeOptions(), random: inout Random
  ) throws(HandshakeRequestError) {
    // A URL built field by field skips the parser's checks: nothing written on the request
    // line or in Host may contain spaces or control characters.
    let isUnsafe: (UInt8) -> Bool = { $0 <= 0x20 || $0 == 0x7F }
    guard !url.requestTarget.utf8.contains(where: isUnsafe), url.requestTarget.hasPrefix("/"),
      !url.hostHeader.utf8.contains(where: isUnsafe), !url.host.isEmpty
    else { throw .invalidURL(url.description) }
    for header in options.extraHeaders {
      guard HTTPSyntax.isToken(header.name) else { throw .invalidHeaderName(header.name) }
      guard HTTPSyntax.isSafeFieldValue(header.value) else {
        throw .invalidHeaderValue(name: header.name)
      }
      guard !Self.reservedHeaderNames.contains(header.name.lowercased()) else {
        throw .reservedHeader(header.name)
      }
    }
    for subprotocol in options.subprotocols where !HTTPSyntax.isToken(subprotocol) {
      throw .invalidSubprotocol(subprotocol)
    }
    if let origin = options.origin, !HTTPSyntax.isSafeFieldValue(origin) || origin.isEmpty {
      throw .invalidHeaderValue(name: "Origin")
    }
    if let deflate = options.deflate, !deflate.isValid { throw .invalidDeflateOffer }
    // 16 bytes from two 64-bit draws, least significant byte first.
    let words = [random.next(), random.next()]
    let nonce = words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
    }
    self.url = url
    self.options = options
    self.key = Base64.encode(nonce)

    var head = "GET \(url.requestTarget) HTTP/1.1\r\n"
    head += "Host: \(url.hostHeader)\r\n"
    head += "Upgrade: websocket\r\n"
    head += "Connection: Upgrade\r\n"
    head += "Sec-WebSocket-Key: \(key)\r\n"
    head += "Sec-WebSocket-Version: 13\r\n"
    if let origin = options.origin { head += "Origin: \(origin)\r\n" }
    if !options.subprotocols.isEmpty {
      head += "Sec-WebSocket-Protocol: \(options.subprotocols.joined(separator: ", "))\r\n"
    }
    if let deflate = options.deflate {
      head += "Sec-WebSocket-Extensions: \(deflate.headerValue)\r\n"
    }
    for header in options.extraHeaders { head += "\(header.name): \(header.value)\r\n" }
    head += "\r\n"
    self.bytes = Array(head.utf8)
  }

  /// The `Sec-WebSocket-Accept` value a server must answer with.
  public var expectedAccept: String { Self.acceptValue(forKey: key) }

  /// RFC 6455 §1.3: base64(SHA-1(key + GUID)).
  public static func acceptValue(forKey key: String) -> String {
    Base64.encode(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
  }
}

/// Why a handshake request could not be built.
public enum HandshakeRequestError: Error, Sendable, Hashable, CustomStringConvertible {
  case invalidHeaderName(String)
  case invalidHeaderValue(name: String)
  case reservedHeader(String)
  case invalidSubprotocol(String)
  case invalidURL(String)
  case invalidDeflateOffer

  public var description: String {
    switch self {
    case .invalidHeaderName(let name): "invalid header name '\(name)'"
    case .invalidHeaderValue(let name):
      "the value of header '\(name)' is empty or contains CR, LF or NUL"
    case .reservedHeader(let name): "header '\(name)' is set by the WebSocket handshake itself"
    case .invalidSubprotocol(let name): "invalid subprotocol name '\(name)'"
    case .invalidURL(let url): "'\(url)' cannot be sent in a request: spaces or control characters"
    case .invalidDeflateOffer: "permessage-deflate window bits must be from 8 to 15"
    }
  }
}
