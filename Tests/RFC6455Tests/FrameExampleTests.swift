import RFC6455
import TestSupport
import Testing

@Suite("RFC 6455 §5.7 frame examples, byte for byte")
struct FrameExampleTests {
  static let hello = utf8("Hello")
  static let rfcKey = MaskingKey(0x37, 0xFA, 0x21, 0x3D)

  @Test func singleFrameUnmaskedText() {
    let bytes: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
    #expect(FrameEncoder.encode(opcode: .text, payload: Self.hello, maskingKey: nil) == bytes)
    #expect(decode(bytes) == DecodeResult(outputs: [.message(.text("Hello"))]))
    #expect(decodeBytewise(bytes) == DecodeResult(outputs: [.message(.text("Hello"))]))
  }

  @Test func singleFrameMaskedText() {
    let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    #expect(
      FrameEncoder.encode(opcode: .text, payload: Self.hello, maskingKey: Self.rfcKey) == bytes)
    #expect(decode(bytes, role: .server) == DecodeResult(outputs: [.message(.text("Hello"))]))
    #expect(
      decodeBytewise(bytes, role: .server) == DecodeResult(outputs: [.message(.text("Hello"))]))
  }

  @Test func fragmentedUnmaskedText() {
    let first: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C]
    let second: [UInt8] = [0x80, 0x02, 0x6C, 0x6F]
    #expect(
      FrameEncoder.encode(opcode: .text, fin: false, payload: utf8("Hel"), maskingKey: nil) == first
    )
    #expect(
      FrameEncoder.encode(opcode: .continuation, payload: utf8("lo"), maskingKey: nil) == second)
    #expect(decode(first + second) == DecodeResult(outputs: [.message(.text("Hello"))]))
    #expect(decode(first) == DecodeResult(outputs: []))
  }

  @Test func unmaskedPingAndMaskedPong() {
    let ping: [UInt8] = [0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]
    let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    #expect(FrameEncoder.encode(opcode: .ping, payload: Self.hello, maskingKey: nil) == ping)
    #expect(
      FrameEncoder.encode(opcode: .pong, payload: Self.hello, maskingKey: Self.rfcKey) == pong)
    #expect(decode(ping) == DecodeResult(outputs: [.ping(Self.hello)]))
    #expect(decode(pong, role: .server) == DecodeResult(outputs: [.pong(Self.hello)]))
  }

  @Test func binary256BytesUses16BitLength() {
    let payload = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
    let bytes = FrameEncoder.encode(opcode: .binary, payload: payload, maskingKey: nil)
    #expect(Array(bytes.prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
    #expect(bytes.count == 4 + 256)
    #expect(decode(bytes, pieces: [3, 100]) == DecodeResult(outputs: [.message(.binary(payload))]))
  }

  @Test func binary64KiBUses64BitLength() {
    let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 * 7) }
    let bytes = FrameEncoder.encode(opcode: .binary, payload: payload, maskingKey: nil)
    #expect(Array(bytes.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
    #expect(
      decode(bytes, pieces: [9, 1, 4000]) == DecodeResult(outputs: [.message(.binary(payload))]))
    let masked = FrameEncoder.encode(opcode: .binary, payload: payload, maskingKey: Self.rfcKey)
    #expect(
      Array(masked.prefix(14)) == [0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0, 0, 0x37, 0xFA, 0x21, 0x3D])
    #expect(
      decode(masked, pieces: [13, 3, 5000], role: .server)
        == DecodeResult(outputs: [.message(.binary(payload))]))
  }

  @Test func lengthBoundaries() {
    for count in [0, 1, 125, 126, 127, 65535, 65536] {
      let payload = [UInt8](repeating: 0x61, count: count)
      let bytes = FrameEncoder.encode(opcode: .binary, payload: payload, maskingKey: nil)
      #expect(bytes.count == FrameEncoder.headerSize(payloadCount: count, masked: false) + count)
      #expect(decode(bytes) == DecodeResult(outputs: [.message(.binary(payload))]))
    }
  }
}

@Suite("Masking (RFC 6455 §5.3)")
struct MaskingTests {
  func referenceMask(_ bytes: [UInt8], key: MaskingKey, phase: Int) -> [UInt8] {
    bytes.enumerated().map { $0.element ^ key.bytes[($0.offset + phase) % 4] }
  }

  @Test func wordAtATimeMatchesByteAtATimeAtEveryAlignmentPhaseAndLength() {
    var random = SplitMix64(seed: 42)
    let key = MaskingKey.random(using: &random)
    let source = (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }
    for alignment in 0..<8 {
      for phase in 0..<4 {
        for count in [0, 1, 3, 7, 8, 9, 31, 32, 33, 64, 100, 250] {
          let input = Array(source[alignment..<(alignment + count)])
          var output = [UInt8](repeating: 0, count: count + alignment)
          input.withUnsafeBytes { src in
            output.withUnsafeMutableBytes { dst in
              Masking.apply(
                key, phase: phase, from: src.baseAddress ?? UnsafeRawPointer(dst.baseAddress!),
                to: dst.baseAddress! + alignment, count: count)
            }
          }
          #expect(Array(output[alignment...]) == referenceMask(input, key: key, phase: phase))
        }
      }
    }
  }

  @Test func maskingTwiceRestoresThePayload() {
    var bytes = utf8("round trip through the mask")
    let key = MaskingKey(1, 2, 3, 4)
    Masking.apply(key, to: &bytes)
    #expect(bytes != utf8("round trip through the mask"))
    Masking.apply(key, to: &bytes)
    #expect(bytes == utf8("round trip through the mask"))
  }

  @Test func eachClientFrameGetsAFreshKey() throws {
    var connection = try openConnection()
    try connection.send(text: "a")
    try connection.send(text: "a")
    let frames = connection.takeOutbound()
    #expect(frames.count == 2)
    #expect(frames[0][1] & 0x80 != 0 && frames[1][1] & 0x80 != 0)
    #expect(frames[0][2..<6] != frames[1][2..<6])
  }
}
