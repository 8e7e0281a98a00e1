import RFC6455
import TestSupport
import Testing

@Suite("Rejections, each with the RFC's close code (RFC 6455 §5, §7.4, §8.1)")
struct ValidationTests {
  func expectFailure(
    _ bytes: [UInt8], _ error: ProtocolError, code: UInt16, maxMessageSize: Int = 16 << 20
  ) {
    for result in [
      decode(bytes, maxMessageSize: maxMessageSize),
      decode(
        bytes, pieces: Array(repeating: 1, count: bytes.count), maxMessageSize: maxMessageSize),
    ] {
      #expect(result.error == error)
    }
    #expect(error.closeCode.rawValue == code)
  }

  @Test func maskedServerFrame() {
    expectFailure([0x81, 0x81, 1, 2, 3, 4, 0x61], .maskedFrameFromServer, code: 1002)
  }

  @Test func unmaskedClientFrameOnTheServerSide() {
    #expect(decode([0x81, 0x01, 0x61], role: .server).error == .unmaskedFrameFromClient)
  }

  @Test func reservedBits() {
    for rsv: UInt8 in 1...7 {
      expectFailure(serverFrame(0x1, rsv: rsv, utf8("x")), .reservedBitsSet(rsv), code: 1002)
    }
  }

  @Test func reservedOpcodes() {
    for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
      expectFailure(serverFrame(opcode, []), .reservedOpcode(opcode), code: 1002)
    }
  }

  @Test func controlFramesOver125Bytes() {
    expectFailure(
      serverFrame(0x9, [UInt8](repeating: 0, count: 126)), .controlFrameTooLong(126), code: 1002)
    expectFailure(
      serverFrame(0x8, [UInt8](repeating: 0, count: 300)), .controlFrameTooLong(126), code: 1002)
  }

  @Test func fragmentedControlFrames() {
    expectFailure(serverFrame(0x9, fin: false, utf8("a")), .fragmentedControlFrame, code: 1002)
    expectFailure(serverFrame(0x8, fin: false, []), .fragmentedControlFrame, code: 1002)
  }

  @Test func continuationWithoutMessage() {
    expectFailure(serverFrame(0x0, utf8("a")), .continuationWithoutMessage, code: 1002)
    // A complete message does not leave one open.
    expectFailure(
      serverFrame(0x1, utf8("a")) + serverFrame(0x0, utf8("b")), .continuationWithoutMessage,
      code: 1002)
  }

  @Test func newDataFrameInsideFragmentedMessage() {
    expectFailure(
      serverFrame(0x1, fin: false, utf8("a")) + serverFrame(0x1, utf8("b")),
      .dataFrameInsideFragmentedMessage, code: 1002)
    expectFailure(
      serverFrame(0x2, fin: false, [1]) + serverFrame(0x2, [2]), .dataFrameInsideFragmentedMessage,
      code: 1002)
  }

  @Test func sixtyFourBitLengthWithTopBitSet() {
    expectFailure([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1], .lengthTopBitSet, code: 1002)
    // Fails as soon as the byte with the bit arrives, before the rest of the length.
    #expect(decode([0x82, 0x7F, 0xFF]).error == .lengthTopBitSet)
  }

  @Test func invalidUTF8InText() {
    expectFailure(serverFrame(0x1, [0x61, 0xFF, 0x62]), .invalidUTF8(messageOffset: 1), code: 1007)
    expectFailure(serverFrame(0x1, [0xCE, 0xBA, 0xE1]), .invalidUTF8(messageOffset: 3), code: 1007)
    // Binary is not validated.
    #expect(decode(serverFrame(0x2, [0xFF])).error == nil)
  }

  @Test func invalidUTF8FailsAtTheFirstBadByteBeforeTheFrameEnds() {
    // A 100-byte text frame whose 4th byte is invalid, of which only 10 bytes have arrived.
    var payload = [UInt8](repeating: 0x61, count: 100)
    payload[3] = 0xC0
    let partial = Array(serverFrame(0x1, payload).prefix(12))
    #expect(decode(partial).error == .invalidUTF8(messageOffset: 3))
    // An overlong/surrogate is caught at its second byte, before the sequence would end.
    #expect(
      decode(Array(serverFrame(0x1, [0xED, 0xA0, 0x80, 0x61]).prefix(4))).error
        == .invalidUTF8(messageOffset: 1))
    // In a later fragment, before the final fragment arrives.
    let fragments =
      serverFrame(0x1, fin: false, utf8("ok")) + serverFrame(0x0, fin: false, [0x61, 0xF5])
    #expect(decode(fragments).error == .invalidUTF8(messageOffset: 3))
  }

  @Test func codePointsMaySplitAcrossFramesAndReads() {
    let euro: [UInt8] = [0xE2, 0x82, 0xAC]
    let bytes =
      serverFrame(0x1, fin: false, [euro[0]]) + serverFrame(0x0, fin: false, [euro[1]])
      + serverFrame(0x0, [euro[2]])
    #expect(decode(bytes) == DecodeResult(outputs: [.message(.text("€"))]))
    #expect(decodeBytewise(bytes) == DecodeResult(outputs: [.message(.text("€"))]))
    // But a message may not end inside one.
    expectFailure(
      serverFrame(0x1, fin: false, [euro[0]]) + serverFrame(0x0, [euro[1]]),
      .invalidUTF8(messageOffset: 2), code: 1007)
  }

  @Test func messagesOverTheLimitFailBeforeBuffering() {
    expectFailure(
      serverFrame(0x2, [UInt8](repeating: 0, count: 101)), .messageTooLarge(size: 101, limit: 100),
      code: 1009, maxMessageSize: 100)
    // Across fragments: the second fragment's header already exceeds it.
    let fragments =
      serverFrame(0x1, fin: false, [UInt8](repeating: 0x61, count: 60))
      + serverFrame(0x0, [UInt8](repeating: 0x61, count: 60))
    expectFailure(
      fragments, .messageTooLarge(size: 120, limit: 100), code: 1009, maxMessageSize: 100)
    // A header claiming 2^62 bytes is refused from the header alone.
    #expect(
      decode([0x82, 0x7F, 0x40, 0, 0, 0, 0, 0, 0, 0]).error
        == .messageTooLarge(size: 1 << 62, limit: 16 << 20))
    #expect(
      decode(serverFrame(0x2, [UInt8](repeating: 0, count: 100)), maxMessageSize: 100).error == nil)
    // The largest length the top-bit rule allows must not overflow anything.
    let largest: [UInt8] = [0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    expectFailure(largest, .messageTooLarge(size: UInt64(Int.max), limit: 16 << 20), code: 1009)
    expectFailure(
      largest + [1, 2, 3], .messageTooLarge(size: UInt64(Int.max), limit: 16 << 20), code: 1009)
  }

  @Test func closeFramePayloadRules() {
    expectFailure(serverFrame(0x8, [0x03]), .closePayloadTooShort, code: 1002)
    for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] {
      expectFailure(
        serverFrame(0x8, [UInt8(code >> 8), UInt8(code & 0xFF)]), .invalidCloseCode(code),
        code: 1002)
    }
    expectFailure(
      serverFrame(
        0x8,
        [
          0x03, 0xE8, 0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0,
          0x80,
        ]), .invalidCloseReason, code: 1007)
    for code: UInt16 in [
      1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000,
      4999,
    ] {
      let result = decode(serverFrame(0x8, [UInt8(code >> 8), UInt8(code & 0xFF)] + utf8("bye")))
      #expect(
        result == DecodeResult(outputs: [.close(CloseFrame(code: CloseCode(code), reason: "bye"))]))
    }
    #expect(decode(serverFrame(0x8, [])) == DecodeResult(outputs: [.close(CloseFrame(code: nil))]))
  }

  @Test func nothingAfterACloseFrameIsRead() {
    let bytes = serverFrame(0x8, [0x03, 0xE8]) + serverFrame(0x1, utf8("late")) + [0xFF, 0xFF]
    #expect(decode(bytes) == DecodeResult(outputs: [.close(CloseFrame(code: .normalClosure))]))
  }

  @Test func controlFramesInterleavedInAFragmentedMessage() {
    let bytes =
      serverFrame(0x1, fin: false, utf8("frag")) + serverFrame(0x9, utf8("p1"))
      + serverFrame(0x0, fin: false, utf8("men")) + serverFrame(0xA, [])
      + serverFrame(0x0, utf8("ted"))
    let expected = DecodeResult(outputs: [
      .ping(utf8("p1")), .pong([]), .message(.text("fragmented")),
    ])
    #expect(decode(bytes) == expected)
    #expect(decodeBytewise(bytes) == expected)
  }

  @Test func emptyFramesAndMessages() {
    let bytes =
      serverFrame(0x1, []) + serverFrame(0x2, fin: false, []) + serverFrame(0x0, fin: false, [])
      + serverFrame(0x0, [7]) + serverFrame(0x9, [])
    let expected = DecodeResult(outputs: [.message(.text("")), .message(.binary([7])), .ping([])])
    #expect(decode(bytes) == expected)
    #expect(decodeBytewise(bytes) == expected)
  }

  @Test func aMessageInManyTinyFragmentsIsReassembled() {
    var bytes = serverFrame(0x2, fin: false, [0])
    for index in 1..<20_000 {
      bytes += serverFrame(0x0, fin: index == 19_999, [UInt8(truncatingIfNeeded: index)])
    }
    let expected = (0..<20_000).map { UInt8(truncatingIfNeeded: $0) }
    #expect(
      decode(bytes, pieces: [5, 7, 1000]) == DecodeResult(outputs: [.message(.binary(expected))]))
  }
}
