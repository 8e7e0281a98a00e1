import HTTPTypes
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import QnARoom
import RFC6455
import ZlibCompression

/// What permessage-deflate (RFC 7692) this server agrees to for one offer: always without
/// server context takeover (§7.1.1.1: the server may say so whatever the client offered), so
/// that every message is compressed from a fresh state and one compression serves every
/// socket with the same window (`CompressorPool`); the window the client asked the server to
/// keep to; and whether the client must forget its context after each message too (then a
/// socket keeps no zlib state between messages at all).
struct DeflateAgreement: Sendable, Equatable {
  var serverWindowBits = 15
  var serverWindowAsked = false
  var clientNoContextTakeover: Bool

  /// `nil` for an offer this server cannot accept (an unknown parameter, a window out of
  /// range): the next offer is tried, and without one the socket is not compressed.
  init?(_ offer: WebSocketExtensionHTTPParameters, requireClientNoContextTakeover: Bool) {
    // Matched as hummingbird-websocket matches a builder's name: exactly.
    guard offer.name == PooledDeflateBuilder.name else { return nil }
    clientNoContextTakeover = requireClientNoContextTakeover
    for (name, value) in offer.parameters {
      switch name.lowercased() {
      case "server_no_context_takeover":
        guard value == .null else { return nil }
      case "client_no_context_takeover":
        guard value == .null else { return nil }
        clientNoContextTakeover = true
      case "server_max_window_bits":
        guard let bits = Self.bits(value) else { return nil }
        serverWindowBits = bits
        serverWindowAsked = true
      case "client_max_window_bits":
        // A hint that the client can keep to a window: the server inflates with the largest.
        guard value == .null || Self.bits(value) != nil else { return nil }
      default:
        return nil
      }
    }
  }

  private static func bits(_ value: WebSocketExtensionHTTPParameters.Parameter) -> Int? {
    guard case .value(let text) = value, text.first != "0", let bits = Int(text),
      (8...15).contains(bits)
    else { return nil }
    return bits
  }

  var responseHeader: String {
    var header = "permessage-deflate; server_no_context_takeover"
    if clientNoContextTakeover { header += "; client_no_context_takeover" }
    if serverWindowAsked { header += "; server_max_window_bits=\(serverWindowBits)" }
    return header
  }

  /// The agreement for an upgrade's offers, as the builder below made it: the first one
  /// accepted.
  static func first(in headers: HTTPFields, requireClientNoContextTakeover: Bool)
    -> DeflateAgreement?
  {
    for offer in WebSocketExtensionHTTPParameters.parseHeaders(headers) {
      if let agreed = DeflateAgreement(
        offer, requireClientNoContextTakeover: requireClientNoContextTakeover)
      {
        return agreed
      }
    }
    return nil
  }
}

/// permessage-deflate with the server's compression shared (see `DeflateAgreement`).
struct PooledDeflateBuilder: WebSocketExtensionBuilder {
  static var name: String { "permessage-deflate" }
  let deflaters: CompressorPool
  let requireClientNoContextTakeover: Bool
  /// A frame that inflates past this (a compression bomb) fails the connection with 1009.
  let maxInflatedFrameSize: Int

  func clientRequestHeader() -> String { "permessage-deflate" }

  func serverReponseHeader(to request: WebSocketExtensionHTTPParameters) -> String? {
    DeflateAgreement(request, requireClientNoContextTakeover: requireClientNoContextTakeover)?
      .responseHeader
  }

  func serverExtension(from request: WebSocketExtensionHTTPParameters) throws
    -> (any WebSocketExtension)?
  {
    guard
      let agreed = DeflateAgreement(
        request, requireClientNoContextTakeover: requireClientNoContextTakeover)
    else { return nil }
    return PooledDeflate(
      agreed: agreed, deflaters: deflaters, maxInflatedFrameSize: maxInflatedFrameSize)
  }

  func clientExtension(from response: WebSocketExtensionHTTPParameters) throws
    -> (any WebSocketExtension)?
  { nil }
}

/// One socket's permessage-deflate: inflates what the client compressed (zlib state only
/// while a message is inflated, unless the client keeps its context); compresses what the
/// WebSocket library itself sends (the echo route's replies) with the shared compressors.
/// The room's frames do not pass here: they are made compressed (`OutgoingMessage`).
final class PooledDeflate: WebSocketExtension, @unchecked Sendable {
  // @unchecked: the library calls `processReceivedFrame` for one frame at a time.
  let name = "permessage-deflate"
  private let agreed: DeflateAgreement
  private let deflaters: CompressorPool
  private let maxInflatedFrameSize: Int
  private let inflater: ZlibMessageInflater
  private var inflating = false

  init(agreed: DeflateAgreement, deflaters: CompressorPool, maxInflatedFrameSize: Int) {
    self.agreed = agreed
    self.deflaters = deflaters
    self.maxInflatedFrameSize = maxInflatedFrameSize
    inflater = ZlibMessageInflater(keepsContext: !agreed.clientNoContextTakeover)
  }

  var reservedBits: WebSocketFrame.ReservedBits { .rsv1 }

  func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext)
    async throws -> WebSocketFrame
  {
    guard frame.opcode == .text || frame.opcode == .binary || frame.opcode == .continuation
    else { return frame }
    if frame.opcode != .continuation {
      inflating = frame.rsv1
    } else if frame.rsv1 {
      // RFC 7692 §6.1: RSV1 on the first frame of a message only. (This error is the one the
      // library answers with 1002, a protocol error.)
      throw NIOWebSocketError.fragmentedControlFrame
    }
    guard inflating else { return frame }
    var output: [UInt8] = []
    let data = frame.unmaskedData
    do {
      try data.withUnsafeReadableBytes { bytes in
        try inflater.inflate(bytes, final: frame.fin, into: &output, limit: maxInflatedFrameSize)
      }
    } catch InflateError.tooLarge {
      // The library closes with 1009 for this one.
      throw NIOWebSocketError.invalidFrameLength
    }
    if frame.fin { inflating = false }
    var inflated = frame
    inflated.data = ByteBuffer(bytes: output)
    inflated.maskKey = nil
    inflated.rsv1 = false
    return inflated
  }

  func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext)
    async throws -> WebSocketFrame
  {
    // Whole messages only (the library sends no fragments here); control frames as they are.
    guard frame.fin, frame.opcode == .text || frame.opcode == .binary,
      case .deflate(let bits) = deflaters.framing(peerWindowBits: agreed.serverWindowBits)
    else { return frame }
    let compressed = frame.data.withUnsafeReadableBytes {
      deflaters.compress($0, windowBits: bits)
    }
    guard let compressed else { return frame }
    var out = frame
    out.data = ByteBuffer(bytes: compressed)
    out.rsv1 = true
    return out
  }

  func shutdown() async {}
}
