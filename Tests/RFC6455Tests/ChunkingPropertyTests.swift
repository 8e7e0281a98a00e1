import PropertyBased
import RFC6455
import TestSupport
import Testing

@Suite("Any chunking of a valid frame stream yields the same events")
struct ChunkingPropertyTests {
  /// A random valid stream of server frames: fragmented and whole messages with control frames
  /// interleaved, text with multi-byte characters, lengths across the 7/16/64-bit boundaries.
  static func stream(seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    let words = ["a", "ß", "€", "😀", "hello", " ", "κόσμε"]
    for _ in 0..<Int.random(in: 1...12, using: &random) {
      let kind = Int.random(in: 0..<4, using: &random)
      if kind == 0 {
        let payload = (0..<Int.random(in: 0...125, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
        bytes += serverFrame(Bool.random(using: &random) ? 0x9 : 0xA, payload)
        continue
      }
      let isText = kind == 1
      let size = [0, 5, 125, 126, 200, 65535, 65536, 70000][Int.random(in: 0..<8, using: &random)]
      var payload: [UInt8]
      if isText {
        var text = ""
        while text.utf8.count < size {
          text += words[Int.random(in: 0..<words.count, using: &random)]
        }
        payload = utf8(text)
      } else {
        payload = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
      }
      // Split into fragments at arbitrary byte positions (even inside a code point).
      let fragments = Int.random(in: 1...4, using: &random)
      var cuts = (0..<(fragments - 1)).map { _ in Int.random(in: 0...payload.count, using: &random)
      }.sorted()
      cuts = [0] + cuts + [payload.count]
      for index in 0..<(cuts.count - 1) {
        let opcode: UInt8 = index == 0 ? (isText ? 0x1 : 0x2) : 0x0
        bytes += serverFrame(
          opcode, fin: index == cuts.count - 2, Array(payload[cuts[index]..<cuts[index + 1]]))
        if Int.random(in: 0..<4, using: &random) == 0 { bytes += serverFrame(0x9, utf8("mid")) }
      }
    }
    return bytes + serverFrame(0x8, [0x03, 0xE8])
  }

  @Test func randomSplitsOfRandomStreamsGiveIdenticalEvents() async {
    await propertyCheck(count: 150, input: Gen.uint64(), Gen.int(in: 1...5000).array(of: 0...40)) {
      seed, pieces in
      let bytes = Self.stream(seed: seed)
      let whole = decode(bytes)
      #expect(whole.error == nil)
      #expect(whole.outputs.last == .close(CloseFrame(code: .normalClosure)))
      #expect(decode(bytes, pieces: pieces) == whole)
    }
  }

  @Test func byteAtATimeEqualsWhole() {
    for seed: UInt64 in 1...8 {
      let bytes = Self.stream(seed: seed)
      #expect(decodeBytewise(bytes) == decode(bytes))
    }
  }

  @Test func maskedStreamsDecodeTheSameOnTheServerSide() async {
    await propertyCheck(
      count: 100, input: Gen.uint8().array(of: 0...300), Gen.int(in: 1...50).array(of: 0...10)
    ) { payload, pieces in
      var random = SplitMix64(seed: UInt64(payload.count))
      let frame = FrameEncoder.encode(
        opcode: .binary, payload: payload, maskingKey: .random(using: &random))
      #expect(
        decode(frame, pieces: pieces, role: .server)
          == DecodeResult(outputs: [.message(.binary(payload))]))
    }
  }
}
