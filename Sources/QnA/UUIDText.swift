#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension UUID {
  /// A UUID in its 36-character text form, either case, as `UUID(uuidString:)` reads it,
  /// without its formatted scanning: the store reads several per question in every delta.
  package init?(text: String) {
    var text = text
    guard let value = text.withUTF8({ UUID.value(ofText: UnsafeRawBufferPointer($0)[...]) })
    else { return nil }
    self.init(uuid: value)
  }

  /// The 16 bytes of a UUID's 36-character text, `nil` for anything else.
  static func value(ofText text: Slice<UnsafeRawBufferPointer>) -> uuid_t? {
    guard text.count == 36 else { return nil }
    var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var index = text.startIndex
    let parsed = withUnsafeMutableBytes(of: &value) { out -> Bool in
      for byte in 0..<16 {
        if byte == 4 || byte == 6 || byte == 8 || byte == 10 {
          guard text[index] == UInt8(ascii: "-") else { return false }
          index += 1
        }
        guard let high = hex(text[index]), let low = hex(text[index + 1]) else { return false }
        out[byte] = high << 4 | low
        index += 2
      }
      return true
    }
    return parsed ? value : nil
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

extension UUID {
  /// The 36-character upper-case text `uuidString` gives, made without its formatted printing
  /// (`snprintf`): the store writes each vote's ids as text.
  package var text: String {
    String(unsafeUninitializedCapacity: 36) { Self.spell(uuid, into: $0) }
  }

  /// The bytes of `text`, appended to `out` without a string made for them (a vote's answer).
  func appendText(to out: inout [UInt8]) {
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: 36))
    out.withUnsafeMutableBufferPointer { bytes in
      _ = Self.spell(uuid, into: UnsafeMutableBufferPointer(rebasing: bytes[start...]))
    }
  }

  /// Writes `value`'s 36-character text at the start of `out`, which has room for it;
  /// returns how many bytes that is.
  private static func spell(_ value: uuid_t, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
    withUnsafeBytes(of: value) { bytes in
      let digits: StaticString = "0123456789ABCDEF"
      var index = 0
      for (position, byte) in bytes.enumerated() {
        if position == 4 || position == 6 || position == 8 || position == 10 {
          out[index] = UInt8(ascii: "-")
          index += 1
        }
        digits.withUTF8Buffer { digits in
          out[index] = digits[Int(byte >> 4)]
          out[index + 1] = digits[Int(byte & 0x0F)]
        }
        index += 2
      }
      return index
    }
  }
}
