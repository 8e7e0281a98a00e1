/// SHA-256 (FIPS 180-4) of a message short enough for one block (at most 55 bytes), which is
/// all a new identity's proof of work hashes (`IdentityWork`). Written here, as SHA-1 is in
/// RFC6455, so that the client and the server share it without a dependency; the page's
/// `identity-work.js` is the same function in JavaScript, checked against the same vectors.
public enum SHA256Block {
  public static let maxMessageLength = 55

  /// The 32-byte digest of `message` (`nil` past `maxMessageLength`).
  public static func digest(_ message: [UInt8]) -> [UInt8]? {
    guard var schedule = schedule(of: message) else { return nil }
    let state = compress(&schedule)
    return [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7].flatMap {
      word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
    }
  }

  /// The digest's first four bytes, big-endian: what a proof of work is judged by.
  public static func firstWord(_ message: [UInt8]) -> UInt32? {
    guard var schedule = schedule(of: message) else { return nil }
    return compress(&schedule).0
  }

  /// The message's one padded block as 16 big-endian words, with room for the 48 more the
  /// compression derives from them.
  static func schedule(of message: [UInt8]) -> [UInt32]? {
    guard message.count <= maxMessageLength else { return nil }
    var block = [UInt32](repeating: 0, count: 64)
    for (index, byte) in message.enumerated() {
      block[index / 4] |= UInt32(byte) << (24 - 8 * UInt32(index % 4))
    }
    block[message.count / 4] |= 0x80 << (24 - 8 * UInt32(message.count % 4))
    block[15] = UInt32(message.count * 8)
    return block
  }

  private static let initial: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]

  private static let rounds: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  private static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
  }

  /// The state after compressing the block in `schedule`'s first 16 words from the initial
  /// state (the other 48 are overwritten): one buffer serves a solver's every attempt.
  static func compress(_ schedule: inout [UInt32])
    -> (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
  {
    for index in 16..<64 {
      let early = schedule[index - 15]
      let late = schedule[index - 2]
      let sigma0 = rotr(early, 7) ^ rotr(early, 18) ^ (early >> 3)
      let sigma1 = rotr(late, 17) ^ rotr(late, 19) ^ (late >> 10)
      schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
    }
    var (a, b, c, d) = (initial[0], initial[1], initial[2], initial[3])
    var (e, f, g, h) = (initial[4], initial[5], initial[6], initial[7])
    for index in 0..<64 {
      let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
      let choice = (e & f) ^ (~e & g)
      let temp1 = h &+ sum1 &+ choice &+ rounds[index] &+ schedule[index]
      let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let temp2 = sum0 &+ majority
      (h, g, f, e) = (g, f, e, d &+ temp1)
      (d, c, b, a) = (c, b, a, temp1 &+ temp2)
    }
    return (
      a &+ initial[0], b &+ initial[1], c &+ initial[2], d &+ initial[3], e &+ initial[4],
      f &+ initial[5], g &+ initial[6], h &+ initial[7]
    )
  }
}
