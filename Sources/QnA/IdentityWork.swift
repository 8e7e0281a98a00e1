#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Extension `identityWork`: what a new identity costs on a connection whose address the
/// server counts. The handshake names the price; a join that asks for a new identity proves it
/// paid with one nonce per index, each making a SHA-256 of (connection id, nonce, index) that
/// starts with `bits` zero bits. The connection id is the challenge: the server chose it, it
/// is unknown before the socket opens, and a socket gets at most one identity, so a proof
/// cannot be made ahead of time nor spent twice. docs/server.md argues the design.
public struct IdentityWork: Sendable, Hashable, Codable {
  /// Leading zero bits each hash needs.
  public var bits: Int
  /// Hashes to find, one per index `0..<count`: many small puzzles instead of one large
  /// one, so that the time one costs varies less (at 16, the 99th percentile is about 1.7
  /// times the mean; at 1 it is 4.6 times).
  public var count: Int

  /// The price the server asks by default: 16 × 2^15 hashes, about 0.3 s for a page on one
  /// core of a laptop, well under a second for a phone's page on its cores.
  public static let standard = IdentityWork(bits: 15, count: 16)
  /// A price past these is a hostile server's, which a client does not try to pay: each
  /// hash's bits and the count within bounds, and the expected hashes in all at most
  /// `maxWork` (8 times the standard price: a few seconds for a slow phone's page).
  public static let maxBits = 24
  public static let maxCount = 64
  public static let maxWork = 1 << 22
  /// The most bits a server may ask with the standard count that clients still pay (18).
  public static let maxStandardBits = (maxWork / standard.count).trailingZeroBitCount

  public init(bits: Int, count: Int) {
    self.bits = bits
    self.count = count
  }

  /// Whether a client should try to pay it.
  public var isPayable: Bool {
    (1...Self.maxBits).contains(bits) && (1...Self.maxCount).contains(count)
      && count << bits <= Self.maxWork
  }

  /// The 21 bytes hashed: the connection id, the nonce (big-endian), the index.
  public static func message(connection: UUID, nonce: UInt32, index: Int) -> [UInt8] {
    let id = connection.uuid
    return [
      id.0, id.1, id.2, id.3, id.4, id.5, id.6, id.7, id.8, id.9, id.10, id.11, id.12, id.13,
      id.14, id.15, UInt8(nonce >> 24), UInt8(truncatingIfNeeded: nonce >> 16),
      UInt8(truncatingIfNeeded: nonce >> 8), UInt8(truncatingIfNeeded: nonce),
      UInt8(truncatingIfNeeded: index),
    ]
  }

  /// Whether `nonces` pay this price on `connection`: exactly `count` of them, each
  /// hashing to `bits` leading zeros at its index. At most `maxCount` hashes, whatever a
  /// client sends.
  public func isProved(by nonces: [UInt32], connection: UUID) -> Bool {
    guard isPayable, nonces.count == count else { return false }
    return nonces.enumerated().allSatisfy { index, nonce in
      SHA256Block.firstWord(Self.message(connection: connection, nonce: nonce, index: index))
        .map(meets) ?? false
    }
  }

  /// The first nonce from `start` that pays for `index` on `connection`; `nil` if none below
  /// 2^32 does (for 24 bits, a chance of e^-256). `isCancelled` is asked every 4,096 tries.
  public func solve(
    connection: UUID, index: Int, from start: UInt32 = 0,
    isCancelled: () -> Bool = { false }
  ) -> UInt32? {
    guard
      var schedule = SHA256Block.schedule(
        of: Self.message(connection: connection, nonce: 0, index: index))
    else { return nil }
    var nonce = start
    while true {
      // Word 4 is the nonce; the rest of the block stays as it was.
      schedule[4] = nonce
      if meets(SHA256Block.compress(&schedule).0) { return nonce }
      if nonce & 0xFFF == 0xFFF, isCancelled() { return nil }
      if nonce == .max { return nil }
      nonce &+= 1
    }
  }

  private func meets(_ firstWord: UInt32) -> Bool {
    firstWord >> (32 - UInt32(bits)) == 0
  }
}
