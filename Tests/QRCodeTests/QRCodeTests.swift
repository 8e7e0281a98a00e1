import Foundation
import QRCode
import TestSupport
import Testing

/// Every code is read back by zbarimg, an independent decoder: a code this encoder gets wrong
/// (a table, a mask, the interleaving) does not scan.
@Suite("QR codes, read by zbarimg")
struct QRCodeTests {
  /// The cells of a code with its quiet zone, as `zbarimg` sees a printed one.
  static func cells(_ code: QRCode) -> [[Bool]] {
    let range = -QRCode.quietZone..<(code.size + QRCode.quietZone)
    return range.map { y in range.map { x in code[x, y] } }
  }

  /// Addresses of every length from a join code's to far past a long URL, so that every
  /// version up to 40 is made, at both lengths fields and across block layouts.
  @Test func everyVersionScans() throws {
    let directory = try TemporaryDirectory()
    var random = SplitMix64(seed: 32)
    var versions = Set<Int>()
    var length = 1
    while length <= QRCode.capacity {
      let text = Self.address(length: length, using: &random)
      let code = try QRCode(text: text)
      versions.insert(code.version)
      let read = try QRReader.decode(cells: Self.cells(code), scale: 3, in: directory)
      #expect(read == [Array(text.utf8)], "version \(code.version), \(length) bytes")
      length += length < 64 ? 7 : length / 6
    }
    let last = try QRCode(text: Self.address(length: QRCode.capacity, using: &random))
    #expect(last.version == 40)
    #expect(try QRReader.decode(cells: Self.cells(last), scale: 3, in: directory).count == 1)
    #expect(versions.count >= 25, "versions made: \(versions.sorted())")
  }

  /// The capacities of level M in byte mode, from the standard's table 7.
  @Test func smallestVersionThatHoldsTheBytes() throws {
    for (bytes, version) in [(14, 1), (15, 2), (26, 2), (27, 3), (213, 10), (214, 11), (2331, 40)] {
      #expect(try QRCode(bytes: Array(repeating: 0x61, count: bytes)).version == version)
    }
    #expect(throws: QRCode.Failure.tooLong(bytes: 2332, limit: 2331)) {
      try QRCode(bytes: Array(repeating: 0x61, count: 2332))
    }
  }

  /// A 200-character join address: version 10, and it scans drawn as a terminal draws it.
  @Test func halfBlocksScan() throws {
    let directory = try TemporaryDirectory()
    var random = SplitMix64(seed: 200)
    let text = Self.address(length: 200, using: &random)
    let code = try QRCode(text: text)
    #expect(code.version == 10)
    let lines = code.halfBlockLines()
    #expect(lines.count == (code.size + 8 + 1) / 2)
    let read = try QRReader.decode(cells: QRReader.cells(halfBlocks: lines), in: directory)
    #expect(read == [Array(text.utf8)])
    for line in code.terminalLines() {
      #expect(line.hasPrefix("\u{1B}[30;107m") && line.hasSuffix("\u{1B}[0m"))
    }
  }

  /// Text beyond ASCII travels as its UTF-8 bytes.
  @Test func utf8Text() throws {
    let directory = try TemporaryDirectory()
    let text = "https://qna.example/s/K7M2QX/?t=Zoë–Łódź"
    let read = try QRReader.decode(cells: Self.cells(try QRCode(text: text)), in: directory)
    #expect(read == [Array(text.utf8)])
  }

  @Test func svgHasOnePathOverAWhiteSquare() throws {
    let code = try QRCode(text: "https://qna.example/s/K7M2QX/")
    let svg = code.svg(label: "Join")
    let side = code.size + 8
    #expect(
      svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\""))
    #expect(svg.contains("aria-label=\"Join\""))
    #expect(svg.components(separatedBy: "<path").count == 2)
  }

  /// The check bytes of the standard's worked example (ISO/IEC 18004 annex I: "01234567",
  /// version 1-M).
  @Test func reedSolomonMatchesTheStandard() {
    let data: [UInt8] = [
      0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC,
      0x11,
    ]
    let check = ReedSolomon.remainder(of: data, generator: ReedSolomon.generator(degree: 10))
    #expect(check == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
  }

  /// A URL-like string of `length` bytes: what people will point their phones at.
  static func address(length: Int, using random: inout SplitMix64) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/.?=&")
    let prefix = "https://q.example/s/K7M2QX/"
    guard length > prefix.count else { return String(prefix.prefix(length)) }
    return prefix
      + String(
        (0..<(length - prefix.count)).map { _ in
          alphabet[Int(random.next() % UInt64(alphabet.count))]
        })
  }
}
