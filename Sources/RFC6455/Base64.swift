/// Standard base64 (RFC 4648 §4, with padding) for the handshake's key and accept values.
/// The core avoids Foundation, and these values are never longer than a few dozen bytes.
public enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  public static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let group =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      output.append(contentsOf: sextets(of: group, count: 4))
      index += 3
    }
    switch bytes.count - index {
    case 1:
      output.append(contentsOf: sextets(of: UInt32(bytes[index]) << 16, count: 2))
      output.append(contentsOf: Array("==".utf8))
    case 2:
      let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
      output.append(contentsOf: sextets(of: group, count: 3))
      output.append(UInt8(ascii: "="))
    default:
      break
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func sextets(of group: UInt32, count: Int) -> [UInt8] {
    (0..<count).map { position in
      alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)]
    }
  }
}
