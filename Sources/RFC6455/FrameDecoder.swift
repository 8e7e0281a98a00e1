/// Turns a byte stream into messages and control frames, from chunks of any size.
///
/// Payload bytes go straight from the input into the message being assembled (no
/// intermediate frame buffer); text is validated as it arrives, and every limit is checked
/// from the header, before the payload is buffered.
public struct FrameDecoder: Sendable {
  /// A client expects unmasked frames from its server; a server expects masked frames.
  public enum Role: Sendable { case client, server }

  public enum Output: Sendable, Hashable {
    case message(WebSocketMessage)
    case ping([UInt8])
    case pong([UInt8])
    case close(CloseFrame)
  }

  public let role: Role
  public let maxMessageSize: Int

  private var pendingHeader: [UInt8] = []
  private var currentFrame: FrameHeader?
  private var payloadRemaining = 0
  private var payloadConsumed = 0
  private var messageKind: MessageKind?
  private var messageBytes: [UInt8] = []
  private var utf8 = UTF8Validator()
  private var controlBytes: [UInt8] = []
  /// permessage-deflate, once negotiated: RSV1 is allowed on a message's first frame, and such
  /// a message is inflated as its payload arrives, never past `maxMessageSize` inflated.
  public var compressor: (any MessageCompressor)?
  private var messageCompressed = false
  /// Compressed bytes of the message so far, bounded too: deflate can say nothing at length.
  private var compressedCount = 0
  /// Unmasked compressed payload (server role only).
  private var scratch: [UInt8] = []
  /// Set once a close frame has been decoded: nothing after it is read (RFC 6455 §5.5.1).
  public private(set) var receivedClose = false

  public init(role: Role = .client, maxMessageSize: Int = 16 << 20) {
    self.role = role
    self.maxMessageSize = maxMessageSize
  }

  /// Decodes `input`, appending what completes to `output`. On a violation, the outputs before
  /// it are in `output` and the error is thrown; the decoder must not be used after that.
  public mutating func decode(_ input: UnsafeRawBufferPointer, into output: inout [Output])
    throws(ProtocolError)
  {
    var index = 0
    let count = input.count
    while index < count && !receivedClose {
      guard let frame = currentFrame else {
        index += try decodeHeader(input, from: index, into: &output)
        continue
      }
      let take = min(payloadRemaining, count - index)
      try consumePayload(UnsafeRawBufferPointer(rebasing: input[index..<(index + take)]), of: frame)
      index += take
      if payloadRemaining == 0 { try finishFrame(frame, into: &output) }
    }
  }

  /// Reads a header starting at `index` and returns how many input bytes it used. A whole
  /// unfragmented message that is entirely in the input is taken in one step.
  private mutating func decodeHeader(
    _ input: UnsafeRawBufferPointer, from index: Int, into output: inout [Output]
  ) throws(ProtocolError) -> Int {
    if !pendingHeader.isEmpty {
      // A header split across reads: gather it a byte at a time (at most 14 bytes).
      pendingHeader.append(input[index])
      let expectMasked = role == .server
      let inProgress = messageKind != nil
      let allowsCompression = compressor != nil
      // `withUnsafeBytes` only rethrows untyped errors, so carry the typed one out in a Result.
      let parsed = pendingHeader.withUnsafeBytes { bytes in
        Result { () throws(ProtocolError) in
          try FrameHeader.parse(
            bytes, expectMasked: expectMasked, messageInProgress: inProgress,
            allowsCompression: allowsCompression)
        }
      }
      if let (header, _) = try parsed.get() {
        pendingHeader.removeAll(keepingCapacity: true)
        try begin(header, into: &output)
      }
      return 1
    }
    let available = UnsafeRawBufferPointer(rebasing: input[index...])
    guard
      let (header, headerLength) = try FrameHeader.parse(
        available, expectMasked: role == .server, messageInProgress: messageKind != nil,
        allowsCompression: compressor != nil)
    else {
      pendingHeader.append(contentsOf: available)
      return available.count
    }
    // Compared without adding: a length near 2^63 must not overflow.
    if header.fin, header.maskingKey == nil, !header.compressed,
      let kind = MessageKind(opcode: header.opcode),
      header.payloadLength <= available.count - headerLength,
      header.payloadLength <= maxMessageSize
    {
      let payloadEnd = headerLength + header.payloadLength
      let payload = UnsafeRawBufferPointer(rebasing: available[headerLength..<payloadEnd])
      try emitWholeMessage(payload, kind: kind, into: &output)
      return payloadEnd
    }
    try begin(header, into: &output)
    return headerLength
  }

  private func emitWholeMessage(
    _ payload: UnsafeRawBufferPointer, kind: MessageKind, into output: inout [Output]
  ) throws(ProtocolError) {
    if kind == .text {
      var validator = UTF8Validator()
      if let bad = validator.validate(payload) { throw .invalidUTF8(messageOffset: bad) }
      guard validator.isAtBoundary else { throw .invalidUTF8(messageOffset: payload.count) }
    }
    let data = [UInt8](unsafeUninitializedCapacity: payload.count) { buffer, initialized in
      if let source = payload.baseAddress, payload.count > 0 {
        UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
          from: source, byteCount: payload.count)
      }
      initialized = payload.count
    }
    output.append(.message(WebSocketMessage(kind: kind, data: data)))
  }

  private mutating func begin(_ header: FrameHeader, into output: inout [Output])
    throws(ProtocolError)
  {
    if header.opcode.isControl {
      controlBytes = []
      controlBytes.reserveCapacity(header.payloadLength)
    } else {
      let starts = messageKind == nil
      if starts { compressedCount = 0 }
      let compressed = starts ? header.compressed : messageCompressed
      if compressed {
        let limit = Self.compressedLimit(maxMessageSize)
        if header.payloadLength > limit - compressedCount {
          throw .messageTooLarge(
            size: UInt64(compressedCount) + UInt64(header.payloadLength), limit: maxMessageSize)
        }
        compressedCount += header.payloadLength
      } else if header.payloadLength > maxMessageSize - messageBytes.count {
        throw .messageTooLarge(
          size: UInt64(messageBytes.count) + UInt64(header.payloadLength), limit: maxMessageSize)
      }
      if starts {
        messageKind = MessageKind(opcode: header.opcode)
        messageCompressed = compressed
        utf8 = UTF8Validator()
        // Sized from the first frame (at most the limit; untouched pages cost nothing).
        // Later fragments grow it geometrically: reserving per fragment would copy the
        // message once per fragment. A compressed one grows as it inflates.
        messageBytes = []
        if !compressed { messageBytes.reserveCapacity(header.payloadLength) }
      }
    }
    currentFrame = header
    payloadRemaining = header.payloadLength
    payloadConsumed = 0
    if payloadRemaining == 0 { try finishFrame(header, into: &output) }
  }

  private mutating func consumePayload(_ piece: UnsafeRawBufferPointer, of frame: FrameHeader)
    throws(ProtocolError)
  {
    if frame.opcode.isControl {
      Self.append(piece, to: &controlBytes, key: frame.maskingKey, phase: payloadConsumed)
    } else if messageCompressed {
      if frame.maskingKey != nil {
        scratch.removeAll(keepingCapacity: true)
        Self.append(piece, to: &scratch, key: frame.maskingKey, phase: payloadConsumed)
        let unmasked = scratch
        // `withUnsafeBytes` only rethrows untyped errors: carry the typed one in a Result.
        let outcome = unmasked.withUnsafeBytes { bytes in
          Result { () throws(ProtocolError) in try inflate(bytes, final: false) }
        }
        try outcome.get()
      } else {
        try inflate(piece, final: false)
      }
    } else {
      let start = messageBytes.count
      Self.append(piece, to: &messageBytes, key: frame.maskingKey, phase: payloadConsumed)
      if messageKind == .text {
        // Validate what just arrived, so invalid text fails before the rest of the frame.
        let bad = messageBytes.withUnsafeBytes { bytes in
          utf8.validate(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
        if let bad { throw .invalidUTF8(messageOffset: start + bad) }
      }
    }
    payloadConsumed += piece.count
    payloadRemaining -= piece.count
  }

  /// Inflates compressed payload into the message, validating new text as it comes.
  private mutating func inflate(_ input: UnsafeRawBufferPointer, final: Bool)
    throws(ProtocolError)
  {
    guard let compressor else { throw .compressedControlOrContinuation }
    let start = messageBytes.count
    var failure: InflateError?
    do throws(InflateError) {
      try compressor.inflate(input, final: final, into: &messageBytes, limit: maxMessageSize)
    } catch {
      failure = error
    }
    // Text that inflated before a failure is judged first: which bytes a read held must not
    // change which error ends the connection.
    if messageKind == .text, messageBytes.count > start {
      let bad = messageBytes.withUnsafeBytes { bytes in
        utf8.validate(UnsafeRawBufferPointer(rebasing: bytes[start...]))
      }
      if let bad { throw .invalidUTF8(messageOffset: start + bad) }
    }
    switch failure {
    case .tooLarge(let limit)?: throw .messageTooLarge(size: UInt64(limit) + 1, limit: limit)
    case .corrupt(let why)?: throw .invalidCompressedData(why)
    case nil: break
    }
  }

  /// The most compressed bytes a message may have: its inflated limit, plus what stored
  /// blocks add to incompressible data (5 bytes in 65,535) and a margin.
  static func compressedLimit(_ maxMessageSize: Int) -> Int {
    maxMessageSize + maxMessageSize / 8192 + 1024
  }

  /// Appends payload bytes, unmasking them when the frame is masked (server role).
  private static func append(
    _ piece: UnsafeRawBufferPointer, to bytes: inout [UInt8], key: MaskingKey?, phase: Int
  ) {
    let start = bytes.count
    bytes.append(contentsOf: piece)
    guard let key else { return }
    bytes.withUnsafeMutableBytes { buffer in
      let region = buffer.baseAddress! + start
      Masking.apply(
        key, phase: phase, from: UnsafeRawPointer(region), to: region, count: piece.count)
    }
  }

  private mutating func finishFrame(_ frame: FrameHeader, into output: inout [Output])
    throws(ProtocolError)
  {
    currentFrame = nil
    switch frame.opcode {
    case .ping:
      output.append(.ping(controlBytes))
    case .pong:
      output.append(.pong(controlBytes))
    case .close:
      let close = try CloseFrame(parsing: controlBytes)
      receivedClose = true
      output.append(.close(close))
    case .text, .binary, .continuation:
      guard frame.fin, let kind = messageKind else { return }
      if messageCompressed {
        try inflate(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
      }
      if kind == .text && !utf8.isAtBoundary {
        throw .invalidUTF8(messageOffset: messageBytes.count)  // ends inside a code point
      }
      output.append(.message(WebSocketMessage(kind: kind, data: messageBytes)))
      messageBytes = []
      messageKind = nil
    }
  }
}
