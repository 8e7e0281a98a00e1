import RFC6455
import Testing

@Suite("SHA-1 (RFC 3174 §7.3 test vectors) and the accept key (RFC 6455 §1.3)")
struct SHA1Tests {
  func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
  }

  @Test func rfc3174Vectors() {
    #expect(hex(SHA1.hash(utf8("abc"))) == "A9993E364706816ABA3E25717850C26C9CD0D89D")
    #expect(
      hex(SHA1.hash(utf8("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))
        == "84983E441C3BD26EBAAE4AA1F95129E5E54670F1")
    #expect(
      hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 1_000_000)))
        == "34AA973CD4C4DAA4F61EEB2BDBAD27316534016F")
    let sixtyFour = utf8(String(repeating: "01234567", count: 8))
    #expect(
      hex(SHA1.hash((0..<10).flatMap { _ in sixtyFour }))
        == "DEA356A2CDDD90C7A7ECEDC5EBB563934F460452")
  }

  @Test func emptyInputAndBlockBoundaries() {
    #expect(hex(SHA1.hash([])) == "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709")
    // 55, 56 and 64 bytes exercise the padding edge cases.
    #expect(
      hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 55)))
        == "C1C8BBDC22796E28C0E15163D20899B65621D65A")
    #expect(
      hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 56)))
        == "C2DB330F6083854C99D4B5BFB6E8F29F201BE699")
    #expect(
      hex(SHA1.hash(repeatElement(UInt8(ascii: "a"), count: 64)))
        == "0098BA824B5C16427BD7A1122A5A442A25EC644D")
  }

  @Test func incrementalUpdatesMatchOneShot() {
    var hasher = SHA1()
    for chunk in [
      utf8("abcdbcdecdefdefg"), utf8("efghfghighijhijkijkljk"), utf8("lmklmnlmnomnopnopq"),
    ] {
      hasher.update(chunk)
    }
    #expect(hex(hasher.finalize()) == "84983E441C3BD26EBAAE4AA1F95129E5E54670F1")
  }

  @Test func acceptKeyExampleFromSection1_3() {
    #expect(
      HandshakeRequest.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==")
        == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  @Test func base64MatchesRFC4648Vectors() {
    let vectors = [
      "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
      "foobar": "Zm9vYmFy",
    ]
    for (input, expected) in vectors {
      #expect(Base64.encode(utf8(input)) == expected)
    }
  }
}
