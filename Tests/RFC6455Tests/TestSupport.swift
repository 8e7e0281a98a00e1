import RFC6455
import TestSupport

/// A generator that replays fixed bytes, for byte-exact expectations (e.g. the RFC's key).
struct ReplayGenerator: RandomNumberGenerator, Sendable {
  var bytes: [UInt8]
  var position = 0
  mutating func next() -> UInt64 {
    var value: UInt64 = 0
    for shift in stride(from: 0, to: 64, by: 8) {
      value |= UInt64(bytes[position % bytes.count]) << UInt64(shift)
      position += 1
    }
    return value
  }
}

/// What a decoder produced from a byte stream, and the error that stopped it, if any.
struct DecodeResult: Equatable {
  var outputs: [FrameDecoder.Output]
  var error: ProtocolError?
}

/// Decodes `bytes` fed in pieces of the given sizes (the rest in one final piece), with
/// permessage-deflate agreed when a compressor is given.
func decode(
  _ bytes: [UInt8], pieces: [Int] = [], role: FrameDecoder.Role = .client,
  maxMessageSize: Int = 16 << 20, compressor: (any MessageCompressor)? = nil
) -> DecodeResult {
  var decoder = FrameDecoder(role: role, maxMessageSize: maxMessageSize)
  decoder.compressor = compressor
  var outputs: [FrameDecoder.Output] = []
  var start = 0
  for size in pieces + [bytes.count] where start < bytes.count {
    let end = min(bytes.count, start + size)
    do {
      try bytes[start..<end].withUnsafeBytes { try decoder.decode($0, into: &outputs) }
    } catch let error as ProtocolError {
      return DecodeResult(outputs: outputs, error: error)
    } catch {
      fatalError("untyped error \(error)")
    }
    start = end
  }
  return DecodeResult(outputs: outputs, error: nil)
}

/// Decodes one byte at a time.
func decodeBytewise(_ bytes: [UInt8], role: FrameDecoder.Role = .client) -> DecodeResult {
  decode(bytes, pieces: Array(repeating: 1, count: bytes.count), role: role)
}

func utf8(_ string: String) -> [UInt8] { Array(string.utf8) }
