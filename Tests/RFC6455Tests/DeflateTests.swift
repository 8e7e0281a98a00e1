import RFC6455
import TestSupport
import Testing
import ZlibCompression

/// permessage-deflate (RFC 7692): its examples byte for byte, every negotiation the client
/// must refuse, the framing rules, and the limits on what a compressed message may become.
@Suite("permessage-deflate")
struct DeflateTests {
  /// Decodes server bytes with permessage-deflate agreed as `parameters`, in pieces.
  static func inflate(
    _ bytes: [UInt8], parameters: DeflateParameters = DeflateParameters(),
    pieces: [Int] = [], maxMessageSize: Int = 16 << 20
  ) -> DecodeResult {
    decode(
      bytes, pieces: pieces, maxMessageSize: maxMessageSize,
      compressor: ZlibCompressor(parameters, sendsAs: .client))
  }

  static let hello = DecodeResult(outputs: [.message(.text("Hello"))], error: nil)

  // MARK: RFC 7692 §7.2.3, byte for byte

  /// One inflater, reset between messages, serves one socket's messages after another's
  /// (no context taken over), and survives a corrupt one and one past its limit.
  @Test func aResettingInflaterInflatesMessagesInTurn() throws {
    let inflater = ZlibResettingInflater()
    let deflater = ZlibMessageDeflater(windowBits: 15, level: 6, memoryLevel: 8)
    func inflated(_ bytes: [UInt8], limit: Int = 1000) -> Result<[UInt8], any Error> {
      var output: [UInt8] = []
      return Result {
        try bytes.withUnsafeBytes { try inflater.inflate($0, into: &output, limit: limit) }
        return output
      }
    }
    // RFC 7692 §7.2.3.1's "Hello", then messages of our own, each after a failed one.
    #expect(try inflated([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]).get() == Array("Hello".utf8))
    for text in ["a vote's worth of JSON, " + String(repeating: "0123456789", count: 12), "xy"] {
      let compressed = Array(text.utf8).withUnsafeBytes { deflater.deflate($0) }
      #expect(try inflated(compressed).get() == Array(text.utf8), "\(text)")
      #expect(throws: InflateError.self) { try inflated(compressed, limit: 1).get() }
      #expect(try inflated(compressed).get() == Array(text.utf8), "\(text) after one too large")
      #expect(throws: InflateError.self) { try inflated([UInt8](repeating: 0xFF, count: 40)).get() }
    }
  }

  @Test func theRFCsExamplesInflate() {
    // §7.2.3.1: "Hello" compressed, in one frame and in two.
    #expect(Self.inflate([0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]) == Self.hello)
    #expect(
      Self.inflate([0x41, 0x03, 0xF2, 0x48, 0xCD, 0x80, 0x04, 0xC9, 0xC9, 0x07, 0x00])
        == Self.hello)
    // §7.2.3.3: a stored (uncompressed) block.
    #expect(
      Self.inflate([0xC1, 0x0B, 0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00])
        == Self.hello)
    // §7.2.3.2: the second "Hello" refers back to the first through the shared window.
    let twice = Self.inflate(
      [
        0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0xC1, 0x05, 0xF2, 0x00, 0x11, 0x00,
        0x00,
      ])
    #expect(twice.outputs == [.message(.text("Hello")), .message(.text("Hello"))])
    // §7.2.3.4: a final block (BFINAL) ends the stream; the next message starts a new one.
    #expect(
      Self.inflate([0xC1, 0x07, 0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00]).outputs
        == [.message(.text("Hello"))])
  }

  @Test func compressedFragmentedMessagesSplitAtEveryByte() {
    let stream: [UInt8] = [
      0x41, 0x03, 0xF2, 0x48, 0xCD, 0x89, 0x00, 0x80, 0x04, 0xC9, 0xC9, 0x07, 0x00,
      0xC1, 0x05, 0xF2, 0x00, 0x11, 0x00, 0x00,
    ]
    let expected = DecodeResult(
      outputs: [.ping([]), .message(.text("Hello")), .message(.text("Hello"))], error: nil)
    for split in 0...stream.count {
      #expect(Self.inflate(stream, pieces: [split]) == expected, "split at \(split)")
    }
    #expect(Self.inflate(stream, pieces: Array(repeating: 1, count: stream.count)) == expected)
  }

  @Test func theCompressorWritesTheRFCsBytes() {
    let compressor = ZlibCompressor(DeflateParameters(), sendsAs: .client)
    let hello = Array("Hello".utf8)
    let first = hello.withUnsafeBytes { compressor.deflate($0) }
    let second = hello.withUnsafeBytes { compressor.deflate($0) }
    #expect(first == [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
    #expect(second == [0xF2, 0x00, 0x11, 0x00, 0x00], "the shared window")
    // Without context takeover, every message stands alone.
    let alone = ZlibCompressor(
      DeflateParameters(clientNoContextTakeover: true), sendsAs: .client)
    for _ in 0..<2 {
      #expect(hello.withUnsafeBytes { alone.deflate($0) } == first)
    }
    // An empty message is one byte (§7.2.3.6).
    #expect([UInt8]().withUnsafeBytes { alone.deflate($0) } == [0x00])
  }

  /// Found by the fuzzer: text that inflated before the stream broke is judged first, so
  /// the error is the same however the bytes were read.
  @Test func theErrorDoesNotDependOnHowTheBytesWereRead() {
    let stream: [UInt8] = [0xC1, 0x07, 0xF2, 0x48, 0x33, 0xFF, 0x3E, 0xFA, 0x00, 0x00, 0x00, 0x00]
    let whole = Self.inflate(stream)
    #expect(whole.error != nil)
    for split in 0...stream.count {
      #expect(Self.inflate(stream, pieces: [split]) == whole, "split at \(split)")
    }
    #expect(Self.inflate(stream, pieces: Array(repeating: 1, count: stream.count)) == whole)
  }

  @Test func aServerWithoutContextTakeoverIsInflatedMessageByMessage() {
    let alone = [0xC1, 0x07, 0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00] as [UInt8]
    let result = Self.inflate(
      alone + alone, parameters: DeflateParameters(serverNoContextTakeover: true))
    #expect(result.outputs == [.message(.text("Hello")), .message(.text("Hello"))])
  }

  // MARK: Framing

  @Test func rsv1IsForTheFirstFrameOfADataMessageOnly() {
    // On a continuation frame.
    #expect(
      Self.inflate(serverFrame(0x1, fin: false, [0x48]) + serverFrame(0x0, rsv: 4, [0x69])).error
        == .compressedControlOrContinuation)
    // On a control frame.
    #expect(Self.inflate(serverFrame(0x9, rsv: 4, [])).error == .compressedControlOrContinuation)
    // RSV2 and RSV3 stay reserved.
    #expect(Self.inflate(serverFrame(0x1, rsv: 2, [0x48])).error == .reservedBitsSet(2))
    // Without deflate agreed, RSV1 is a violation (1002) as before.
    #expect(decode(serverFrame(0x1, rsv: 4, [0x48])).error == .reservedBitsSet(4))
    #expect(ProtocolError.compressedControlOrContinuation.closeCode == .protocolError)
  }

  @Test func theInflatedSizeIsTheLimitCheckedWhileInflating() {
    // A bomb: 4 MiB of zeros in a few KiB, against a 64 KiB limit. Packed at level 9, as an
    // attacker would (the client's own level 1 leaves it at 18 KiB).
    let bomb = [UInt8](repeating: 0, count: 4 << 20)
    let compressed = bomb.withUnsafeBytes {
      ZlibCompressor(DeflateParameters(), sendsAs: .client, level: 9).deflate($0)
    }
    #expect(compressed.count < 8 << 10)
    let result = Self.inflate(
      serverFrame(0x2, rsv: 4, compressed), maxMessageSize: 64 << 10)
    guard case .messageTooLarge(_, let limit)? = result.error else {
      Issue.record("got \(result)")
      return
    }
    #expect(limit == 64 << 10 && result.outputs.isEmpty)
    #expect(result.error?.closeCode == .messageTooBig)
    // Exactly at the limit it arrives.
    let fits = [UInt8](repeating: 0x61, count: 64 << 10)
    let packed = fits.withUnsafeBytes {
      ZlibCompressor(DeflateParameters(), sendsAs: .client).deflate($0)
    }
    #expect(
      Self.inflate(serverFrame(0x1, rsv: 4, packed), maxMessageSize: 64 << 10).outputs
        == [.message(WebSocketMessage(kind: .text, data: fits))])
  }

  @Test func corruptDataAndInflatedInvalidTextFailWith1007() {
    let corrupt = Self.inflate(serverFrame(0x1, rsv: 4, [0xFF, 0xFF, 0xFF, 0xFF]))
    guard case .invalidCompressedData? = corrupt.error else {
      Issue.record("got \(corrupt)")
      return
    }
    #expect(corrupt.error?.closeCode == .invalidPayloadData)
    // Invalid UTF-8 inside a compressed text message fails as it is inflated.
    let bad: [UInt8] = [0x48, 0xC0, 0xAF] + Array(repeating: 0x61, count: 100)
    let packed = bad.withUnsafeBytes {
      ZlibCompressor(DeflateParameters(), sendsAs: .client).deflate($0)
    }
    #expect(Self.inflate(serverFrame(0x1, rsv: 4, packed)).error == .invalidUTF8(messageOffset: 1))
  }

  // MARK: Negotiation

  static func negotiate(_ response: String?, offer: DeflateOffer? = DeflateOffer()) throws
    -> ClientConnection
  {
    var connection = try ClientConnection(
      url: WebSocketURL("ws://h/"), options: HandshakeOptions(deflate: offer),
      random: SplitMix64(seed: 3), compressors: ZlibCompressors())
    let request = connection.takeOutbound()[0]
    let header = response.map { "Sec-WebSocket-Extensions: \($0)\r\n" } ?? ""
    _ = connection.receive(
      switchingProtocols(for: connection.request, extraHeaders: header), now: .zero)
    _ = request
    return connection
  }

  @Test func theOfferIsInTheRequest() throws {
    var connection = try ClientConnection(
      url: WebSocketURL("ws://h/"), options: HandshakeOptions(deflate: DeflateOffer()),
      random: SplitMix64(seed: 3), compressors: ZlibCompressors())
    let request = String(decoding: connection.takeOutbound()[0], as: UTF8.self)
    #expect(
      request.contains("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"))
    // Without a compressor from the runtime nothing is offered.
    var bare = try ClientConnection(
      url: WebSocketURL("ws://h/"), options: HandshakeOptions(deflate: DeflateOffer()))
    #expect(!String(decoding: bare.takeOutbound()[0], as: UTF8.self).contains("Extensions"))
    #expect(throws: HandshakeRequestError.invalidDeflateOffer) {
      try ClientConnection(
        url: WebSocketURL("ws://h/"),
        options: HandshakeOptions(deflate: DeflateOffer(serverMaxWindowBits: 16)),
        compressors: ZlibCompressors())
    }
  }

  @Test(arguments: [
    ("permessage-deflate", DeflateParameters()),
    (
      "permessage-deflate; server_no_context_takeover",
      DeflateParameters(serverNoContextTakeover: true)
    ),
    (
      "PerMessage-Deflate; client_no_context_takeover",
      DeflateParameters(clientNoContextTakeover: true)
    ),
    ("permessage-deflate; server_max_window_bits=10", DeflateParameters(serverMaxWindowBits: 10)),
    ("permessage-deflate; client_max_window_bits=9", DeflateParameters(clientMaxWindowBits: 9)),
    (
      "permessage-deflate;server_max_window_bits=\"12\"", DeflateParameters(serverMaxWindowBits: 12)
    ),
  ])
  func acceptedResponses(_ header: String, _ expected: DeflateParameters) throws {
    let connection = try Self.negotiate(header)
    #expect(connection.state == .open)
    #expect(connection.handshake?.deflate == expected)
  }

  @Test func aServerThatDeclinesLeavesMessagesUncompressed() throws {
    let connection = try Self.negotiate(nil)
    #expect(connection.state == .open && connection.handshake?.deflate == nil)
  }

  @Test(arguments: [
    ("x-webkit-deflate-frame", nil as DeflateOffer?),
    ("permessage-deflate", nil),
    ("x-webkit-deflate-frame", DeflateOffer()),
    ("permessage-deflate, permessage-deflate", DeflateOffer()),
    ("permessage-deflate; unknown_parameter", DeflateOffer()),
    ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", DeflateOffer()),
    ("permessage-deflate; server_no_context_takeover=1", DeflateOffer()),
    ("permessage-deflate; server_max_window_bits", DeflateOffer()),
    ("permessage-deflate; server_max_window_bits=7", DeflateOffer()),
    ("permessage-deflate; server_max_window_bits=16", DeflateOffer()),
    ("permessage-deflate; server_max_window_bits=09", DeflateOffer()),
    ("permessage-deflate; server_max_window_bits=ten", DeflateOffer()),
    ("permessage-deflate; client_max_window_bits", DeflateOffer()),
    ("permessage-deflate; client_max_window_bits=", DeflateOffer()),
    ("permessage-deflate; server_max_window_bits=12", DeflateOffer(serverMaxWindowBits: 10)),
    ("permessage-deflate", DeflateOffer(serverMaxWindowBits: 10)),
    ("permessage-deflate; client_max_window_bits=12", DeflateOffer(clientMaxWindowBits: 10)),
  ])
  func refusedResponses(_ header: String, _ offer: DeflateOffer?) throws {
    var connection = try ClientConnection(
      url: WebSocketURL("ws://h/"), options: HandshakeOptions(deflate: offer),
      random: SplitMix64(seed: 3), compressors: ZlibCompressors())
    _ = connection.takeOutbound()
    let events = connection.receive(
      switchingProtocols(
        for: connection.request, extraHeaders: "Sec-WebSocket-Extensions: \(header)\r\n"),
      now: .zero)
    #expect(connection.state == .closed, "\(header) with \(String(describing: offer))")
    guard case .closed(let status)? = events.last, case .handshake(let error)? = status.error else {
      Issue.record("no handshake failure: \(events)")
      return
    }
    switch error {
    case .invalidExtension, .unrequestedExtension: break
    default: Issue.record("\(header): \(error)")
    }
    #expect(!error.description.isEmpty)
  }

  // MARK: Messages out

  @Test func messagesOutAreCompressedWithRSV1ControlFramesNever() throws {
    var connection = try Self.negotiate("permessage-deflate")
    _ = connection.takeOutbound()
    let long = String(repeating: "Hello, room! ", count: 20)
    try connection.send(text: long)
    try connection.send(text: "Hi")
    try connection.ping(payload: Array("ping".utf8))
    let frames = connection.takeOutbound()
    #expect(frames[0][0] == 0xC1, "FIN, RSV1, text")
    #expect(frames[1][0] == 0x81, "short: sent as it is")
    #expect(frames[2][0] == 0x89, "ping: never compressed")
    // The server's view: unmasked and inflated, the text comes back.
    let payload = unmasked(frames[0])
    let server = ZlibCompressor(DeflateParameters(), sendsAs: .server)
    var inflated: [UInt8] = []
    try payload.withUnsafeBytes {
      try server.inflate($0, final: true, into: &inflated, limit: 1 << 20)
    }
    #expect(String(decoding: inflated, as: UTF8.self) == long)
    #expect(payload.count < long.utf8.count / 4)
  }

  @Test func aServerAskingForAnEightBitWindowGetsUncompressedMessages() throws {
    var connection = try Self.negotiate("permessage-deflate; client_max_window_bits=8")
    _ = connection.takeOutbound()
    try connection.send(text: String(repeating: "x", count: 500))
    #expect(connection.takeOutbound()[0][0] == 0x81)
  }

  /// A masked client frame's payload (short and 16-bit lengths).
  func unmasked(_ frame: [UInt8]) -> [UInt8] {
    let short = Int(frame[1] & 0x7F)
    let (length, offset) = short == 126 ? (Int(frame[2]) << 8 | Int(frame[3]), 4) : (short, 2)
    let key = Array(frame[offset..<(offset + 4)])
    return (0..<length).map { frame[offset + 4 + $0] ^ key[$0 % 4] }
  }
}
