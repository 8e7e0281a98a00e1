import RFC6455
import TestSupport
import Testing

@Suite("ChaCha20 keystream for masking keys (RFC 8439)")
struct ChaCha20RandomTests {
  @Test func blockFunctionMatchesRFC8439Section2_3_2() {
    let key: [UInt32] = [
      0x0302_0100, 0x0706_0504, 0x0b0a_0908, 0x0f0e_0d0c, 0x1312_1110, 0x1716_1514, 0x1b1a_1918,
      0x1f1e_1d1c,
    ]
    let state = ChaCha20Random(
      key: key, counter: 1, nonce: [0x0900_0000, 0x4a00_0000, 0x0000_0000])
    let expected: [UInt32] = [
      0xe4e7_f110, 0x1559_3bd1, 0x1fdd_0f50, 0xc471_20a3, 0xc7f4_d1c7, 0x0368_c033, 0x9aaa_2204,
      0x4e6c_d4c3, 0x4664_82d2, 0x09aa_9f07, 0x05d7_c214, 0xa202_8bd9, 0xd19c_12b5, 0xb94e_16de,
      0xe883_d0cb, 0x4e3c_50a2,
    ]
    #expect(ChaCha20Random.block(state.input) == expected)
  }

  @Test func streamsFromDifferentSeedsDifferAndNeverRepeatAcrossBlocks() {
    var first = ChaCha20Random()
    var second = ChaCha20Random()
    let a = (0..<40).map { _ in first.next() }
    let b = (0..<40).map { _ in second.next() }
    #expect(a != b)
    #expect(Set(a).count == 40)
  }

  @Test func sameSeedSameStream() {
    var seedA = SplitMix64(seed: 9)
    var seedB = SplitMix64(seed: 9)
    var a = ChaCha20Random(seededFrom: &seedA)
    var b = ChaCha20Random(seededFrom: &seedB)
    #expect((0..<20).map { _ in a.next() } == (0..<20).map { _ in b.next() })
  }

}
