import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

import struct RFC6455.UTF8Validator

/// A socket's messages as the server reads them, whatever the route, assembled from frames
/// here so that every refusal comes as soon as it is known, with the code RFC 6455 gives it:
/// text that is not UTF-8 fails at the first bad byte, fragment or not, with 1007 (§8.1,
/// the project's incremental `UTF8Validator`); a message past `maxSize`, inflated or not,
/// with 1009 (§7.4.1); fragments out of order with 1002 (§5.4). (A compression bomb is
/// stopped while it inflates, by `PerSocketDeflate`.)
struct InboundMessages {
  let maxSize: Int
  let logger: Logger

  /// One message being assembled.
  private struct Partial {
    var isText: Bool
    /// `nil` until the first frame's bytes: most messages are one frame, taken as it came.
    var bytes: ByteBuffer?
    var validator = UTF8Validator()
  }

  /// Calls `body` with each message; returns when the socket ends, having closed it where a
  /// message is refused.
  func forEach(
    _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, id: String,
    _ body: (HummingbirdWebSocket.WebSocketMessage) async throws -> Void
  ) async throws {
    var partial: Partial?
    for try await frame in inbound {
      var data = frame.data
      switch frame.opcode {
      case .text, .binary:
        guard partial == nil else {
          return try await refuse(.protocolError, "a new message inside another", outbound, id)
        }
        partial = Partial(isText: frame.opcode == .text)
      case .continuation:
        guard partial != nil else {
          return try await refuse(.protocolError, "a continuation of nothing", outbound, id)
        }
      }
      guard var message = partial else { continue }
      guard (message.bytes?.readableBytes ?? 0) + data.readableBytes <= maxSize else {
        return try await refuse(.messageTooLarge, "message too big", outbound, id)
      }
      if message.isText {
        // This frame's bytes: the validator carries an open code point over from the last.
        let bad = data.withUnsafeReadableBytes { message.validator.validate($0) }
        if bad != nil || (frame.fin && !message.validator.isAtBoundary) {
          return try await refuse(.dataInconsistentWithMessage, "invalid UTF-8", outbound, id)
        }
      }
      if message.bytes == nil {
        message.bytes = data
      } else {
        message.bytes?.writeBuffer(&data)
      }
      guard frame.fin else {
        partial = message
        continue
      }
      partial = nil
      let bytes = message.bytes ?? ByteBuffer()
      try await body(message.isText ? .text(String(buffer: bytes)) : .binary(bytes))
    }
  }

  private func refuse(
    _ code: WebSocketErrorCode, _ reason: String, _ outbound: WebSocketOutboundWriter,
    _ id: String
  ) async throws {
    logger.info("socket \(id): closed with \(code): \(reason)")
    try await outbound.close(code, reason: reason)
  }
}
