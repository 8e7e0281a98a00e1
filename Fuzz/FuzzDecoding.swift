// What both fuzz entries decode with (`make fuzz` compiles it into each).

struct DecodeOutcome: Equatable {
  var outputs: [FrameDecoder.Output] = []
  var error: ProtocolError?
}

/// Decodes `bytes` in reads of `pieceSize`, with permessage-deflate agreed when a compressor
/// is given, up to the first violation.
func decodeFrames(
  _ bytes: [UInt8], role: FrameDecoder.Role, pieceSize: Int, maxMessageSize: Int,
  compressor: (any MessageCompressor)? = nil
) -> DecodeOutcome {
  var decoder = FrameDecoder(role: role, maxMessageSize: maxMessageSize)
  decoder.compressor = compressor
  var outcome = DecodeOutcome()
  var start = 0
  while start < bytes.count {
    let end = min(bytes.count, start + pieceSize)
    let result = bytes[start..<end].withUnsafeBytes { chunk in
      Result { () throws(ProtocolError) in try decoder.decode(chunk, into: &outcome.outputs) }
    }
    if case .failure(let error) = result {
      outcome.error = error
      return outcome
    }
    start = end
  }
  return outcome
}
