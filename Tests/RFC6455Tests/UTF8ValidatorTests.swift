import PropertyBased
import RFC6455
import Testing

@Suite("Incremental UTF-8 validation")
struct UTF8ValidatorTests {
  /// Classic edge cases (after Markus Kuhn's stress test and Unicode Table 3-7).
  static let cases: [(String, [UInt8], Bool)] = [
    ("empty", [], true),
    ("ascii", utf8("hello"), true),
    ("2-byte min U+0080", [0xC2, 0x80], true),
    ("3-byte min U+0800", [0xE0, 0xA0, 0x80], true),
    ("4-byte min U+10000", [0xF0, 0x90, 0x80, 0x80], true),
    ("max U+10FFFF", [0xF4, 0x8F, 0xBF, 0xBF], true),
    ("U+D7FF before surrogates", [0xED, 0x9F, 0xBF], true),
    ("U+E000 after surrogates", [0xEE, 0x80, 0x80], true),
    ("U+FFFD", [0xEF, 0xBF, 0xBD], true),
    ("noncharacter U+FFFF is still valid", [0xEF, 0xBF, 0xBF], true),
    ("overlong / C0 AF", [0xC0, 0xAF], false),
    ("overlong NUL C1 80", [0xC1, 0x80], false),
    ("overlong 3-byte E0 80 AF", [0xE0, 0x80, 0xAF], false),
    ("overlong 4-byte F0 80 80 AF", [0xF0, 0x80, 0x80, 0xAF], false),
    ("surrogate U+D800", [0xED, 0xA0, 0x80], false),
    ("surrogate U+DFFF", [0xED, 0xBF, 0xBF], false),
    ("surrogate pair", [0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80], false),
    ("U+110000", [0xF4, 0x90, 0x80, 0x80], false),
    ("F5 lead", [0xF5, 0x80, 0x80, 0x80], false),
    ("FE", [0xFE], false),
    ("FF", [0xFF], false),
    ("lone continuation", [0x80], false),
    ("truncated 2-byte", [0xC2], false),
    ("truncated 3-byte", [0xE2, 0x82], false),
    ("truncated 4-byte", [0xF0, 0x9F, 0x98], false),
    ("lead then ASCII", [0xE2, 0x41, 0x41], false),
    ("5-byte form", [0xF8, 0x88, 0x80, 0x80, 0x80], false),
  ]

  @Test func classicEdgeCases() {
    for (name, bytes, valid) in Self.cases {
      #expect(UTF8Validator.isValid(bytes) == valid, "\(name)")
      #expect(
        UTF8Validator.isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil), "\(name)"
      )
    }
  }

  @Test func reportsTheFirstByteThatCannotContinue() {
    var validator = UTF8Validator()
    #expect(([0x61, 0x62, 0xE0, 0x9F] as [UInt8]).withUnsafeBytes { validator.validate($0) } == 3)
    validator = UTF8Validator()
    #expect([UInt8](repeating: 0x61, count: 40).withUnsafeBytes { validator.validate($0) } == nil)
    #expect(([0xF4, 0x90] as [UInt8]).withUnsafeBytes { validator.validate($0) } == 1)
  }

  @Test func agreesWithSwiftOnRandomBytes() async {
    await propertyCheck(count: 2000, input: Gen.uint8().array(of: 0...40)) { bytes in
      #expect(UTF8Validator.isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil))
    }
  }

  @Test func agreesWithSwiftOnMostlyValidTextWithOneCorruptedByte() async {
    let words = ["a", "ß", "€", "😀", "κόσμε", "z", " "]
    let text = Gen.int(in: 0...6).array(of: 1...30).map { indexes in
      indexes.map { words[$0] }.joined()
    }
    await propertyCheck(count: 1000, input: text, Gen.int(in: 0...200), Gen.uint8()) {
      string, position, byte in
      var bytes = utf8(string)
      bytes[position % bytes.count] = byte
      #expect(UTF8Validator.isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil))
    }
  }

  @Test func splittingAnywhereGivesTheSameVerdict() async {
    await propertyCheck(count: 1000, input: Gen.uint8().array(of: 0...24), Gen.int(in: 0...24)) {
      bytes, cut in
      let split = min(cut, bytes.count)
      var validator = UTF8Validator()
      let firstBad = Array(bytes[..<split]).withUnsafeBytes { validator.validate($0) }
      let secondBad =
        firstBad == nil ? Array(bytes[split...]).withUnsafeBytes { validator.validate($0) } : nil
      let incremental = firstBad == nil && secondBad == nil && validator.isAtBoundary
      #expect(incremental == UTF8Validator.isValid(bytes))
    }
  }
}
