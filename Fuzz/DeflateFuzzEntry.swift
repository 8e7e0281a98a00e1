// libFuzzer entry for permessage-deflate: the core's frame decoder with the zlib compressor,
// compiled into one module with Sources/RFC6455 and Sources/ZlibCompression (`make fuzz`).
// The first input byte picks the agreement and the read size; the rest is the server's bytes
// after the handshake. Besides "no crash": no message past the limit, no invalid text, and
// reading in pieces changes nothing.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  guard let selector = input.first else { return 0 }
  let body = Array(input.dropFirst())
  let parameters = DeflateParameters(serverNoContextTakeover: selector & 1 != 0)
  let pieceSize = Int(selector >> 1) % 17 + 1
  if selector & 0x80 != 0 {
    fuzzRawInflate(body, parameters: parameters)
    return 0
  }
  let whole = decode(body, parameters, pieceSize: max(1, body.count))
  let pieces = decode(body, parameters, pieceSize: pieceSize)
  guard whole == pieces else { fatalError("chunking changed the result: \(whole) vs \(pieces)") }
  for case .message(let message) in whole.outputs {
    guard message.data.count <= limit else { fatalError("a message past the limit") }
    if message.kind == .text, String(validating: message.data, as: UTF8.self) == nil {
      fatalError("invalid UTF-8 delivered as text")
    }
  }
  return 0
}

private let limit = 4096

private func decode(_ bytes: [UInt8], _ parameters: DeflateParameters, pieceSize: Int)
  -> DecodeOutcome
{
  decodeFrames(
    bytes, role: .client, pieceSize: pieceSize, maxMessageSize: limit,
    compressor: ZlibCompressor(parameters, sendsAs: .client))
}

/// The inflater alone on arbitrary bytes: it stops at the limit and never passes it.
private func fuzzRawInflate(_ bytes: [UInt8], parameters: DeflateParameters) {
  let compressor = ZlibCompressor(parameters, sendsAs: .client)
  var output: [UInt8] = []
  let result = bytes.withUnsafeBytes { input in
    Result { () throws(InflateError) in
      try compressor.inflate(input, final: true, into: &output, limit: limit)
    }
  }
  guard output.count <= limit else { fatalError("inflated past the limit: \(output.count)") }
  if case .success = result {
    // What inflated deflates and inflates back to the same bytes.
    let again = ZlibCompressor(DeflateParameters(), sendsAs: .client)
    let packed = output.withUnsafeBytes { again.deflate($0) }
    var back: [UInt8] = []
    let server = ZlibCompressor(DeflateParameters(), sendsAs: .server)
    let roundTrip = packed.withUnsafeBytes { input in
      Result { () throws(InflateError) in
        try server.inflate(input, final: true, into: &back, limit: limit)
      }
    }
    guard case .success = roundTrip, back == output else { fatalError("round trip changed") }
  }
}
