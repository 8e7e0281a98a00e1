import CompressNIO
import HummingbirdWebSocket
import NIOWebSocket

/// permessage-deflate as hummingbird-websocket makes it, with one change: a frame that
/// inflates past the bound (a compression bomb) fails the connection with 1009, as RFC 6455
/// §7.4.1 has it for a message too big to process, not with the 1011 the library answers
/// every extension error with.
struct PerSocketDeflateBuilder: WebSocketExtensionBuilder {
  static var name: String { "permessage-deflate" }
  let base: any WebSocketExtensionBuilder

  static func factory(_ deflate: WebSocketExtensionFactory) -> WebSocketExtensionFactory {
    WebSocketExtensionFactory { PerSocketDeflateBuilder(base: deflate.build()) }
  }

  func clientRequestHeader() -> String { base.clientRequestHeader() }

  func serverReponseHeader(to request: WebSocketExtensionHTTPParameters) -> String? {
    base.serverReponseHeader(to: request)
  }

  func serverExtension(from request: WebSocketExtensionHTTPParameters) throws
    -> (any WebSocketExtension)?
  {
    try base.serverExtension(from: request).map(PerSocketDeflate.init)
  }

  func clientExtension(from response: WebSocketExtensionHTTPParameters) throws
    -> (any WebSocketExtension)?
  {
    try base.clientExtension(from: response).map(PerSocketDeflate.init)
  }
}

struct PerSocketDeflate: WebSocketExtension {
  let base: any WebSocketExtension

  var name: String { base.name }
  var reservedBits: WebSocketFrame.ReservedBits { base.reservedBits }

  func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext)
    async throws -> WebSocketFrame
  {
    do {
      return try await base.processReceivedFrame(frame, context: context)
    } catch let error as CompressNIOError where error == .bufferOverflow {
      // The library closes with 1009 for this one.
      throw NIOWebSocketError.invalidFrameLength
    }
  }

  func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext)
    async throws -> WebSocketFrame
  {
    try await base.processFrameToSend(frame, context: context)
  }

  func shutdown() async { await base.shutdown() }
}
